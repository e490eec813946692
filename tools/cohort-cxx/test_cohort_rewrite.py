"""Unit tests of cohort_rewrite: the tokenizer and each rewrite."""

import os
import tempfile
import unittest

from cohort_rewrite import Project, RewriteError, rewrite, tokenize


def significant(text):
    return [t.text for t in tokenize(text) if t.kind not in ("space", "comment", "newline")]


class Tokenizer(unittest.TestCase):
    def test_comments_strings_and_chars_are_single_tokens(self):
        tokens = tokenize('a /* k<<<1,1>>>() */ "x<<<y" \'<\' // <<<\n')
        kinds = [t.kind for t in tokens if t.kind != "space"]
        self.assertEqual(kinds, ["ident", "comment", "string", "char", "comment", "newline"])

    def test_raw_strings_keep_quotes_and_parentheses(self):
        text = 'auto s = R"delim(a)" <<< ")delim";'
        self.assertIn('R"delim(a)" <<< ")delim"', significant(text))

    def test_prefixed_literals(self):
        self.assertEqual(significant('u8"a" L\'b\' U"c" uR"(d)"'), ['u8"a"', "L'b'", 'U"c"', 'uR"(d)"'])

    def test_digit_separators_are_not_character_literals(self):
        self.assertEqual(significant("int x = 1'000'000;"), ["int", "x", "=", "1'000'000", ";"])

    def test_line_continuation_and_directives(self):
        tokens = tokenize("#define K(x) \\\n  k<<<1, 1>>>(x)\n")
        self.assertEqual(tokens[0].kind, "hash")
        self.assertIn("<<<", [t.text for t in tokens])

    def test_line_numbers(self):
        tokens = tokenize("a\n/* x\ny */ b\n")
        self.assertEqual([t.line for t in tokens if t.kind == "ident"], [1, 3])

    def test_unterminated_literal_is_an_error(self):
        with self.assertRaises(RewriteError):
            tokenize('const char* s = "abc\n')


class Launches(unittest.TestCase):
    def test_plain_launch(self):
        self.assertEqual(rewrite("k<<<g, b>>>(x, y);"), "::cohort::compat::chevron(k,g, b)(x, y);")

    def test_all_four_configuration_arguments(self):
        self.assertEqual(rewrite("k<<<g, b, s, st>>>();"), "::cohort::compat::chevron(k,g, b, s, st)();")

    def test_qualified_template_kernel(self):
        out = rewrite("ns::k<float, 4><<<dim3(2, 1), 256>>>(p);")
        self.assertEqual(out, "::cohort::compat::chevron(ns::k<float, 4>,dim3(2, 1), 256)(p);")

    def test_template_arguments_with_nested_angles(self):
        out = rewrite("k<std::pair<int, int>><<<1, 1>>>(p);")
        self.assertEqual(out, "::cohort::compat::chevron(k<std::pair<int, int>>,1, 1)(p);")

    def test_configuration_with_templates_and_parentheses(self):
        out = rewrite("k<<<f(a, b), std::max<int>(1, 2), sizeof(std::pair<int,int>)>>>(x);")
        self.assertEqual(
            out, "::cohort::compat::chevron(k,f(a, b), std::max<int>(1, 2), sizeof(std::pair<int,int>))(x);"
        )

    def test_configuration_ending_in_template_close(self):
        out = rewrite("k<<<1, traits<float>::n + v<int>>>>(x);")
        self.assertEqual(out, "::cohort::compat::chevron(k,1, traits<float>::n + v<int>)(x);")

    def test_kernel_from_a_table_or_parentheses(self):
        self.assertEqual(rewrite("t[i]<<<1, 1>>>();"), "::cohort::compat::chevron(t[i],1, 1)();")
        self.assertEqual(rewrite("return (p)<<<1, 1>>>();"), "return ::cohort::compat::chevron((p),1, 1)();")

    def test_global_qualification(self):
        self.assertEqual(rewrite("::k<<<1, 1>>>();"), "::cohort::compat::chevron(::k,1, 1)();")

    def test_arguments_spanning_lines_keep_line_count(self):
        source = "k<<<1,\n 2>>>(a,\n b);\nint after;"
        self.assertEqual(rewrite(source).count("\n"), source.count("\n"))

    def test_braced_arguments_stay_braced(self):
        # The launch's parameters are the kernel's (launch.hpp's chevron_launch), so that
        # a braced list initializes a struct parameter as a call does.
        source = "__global__ void k(int* p, S s) {}\nvoid f() { k<<<1, 2>>>(p, {6, 7}); k<<<1, 2>>>(p,\n {{1, 2}, {}}); }"
        out = rewrite(source)
        self.assertIn("::cohort::compat::chevron(k,1, 2)(p, {6, 7});", out)
        self.assertIn("::cohort::compat::chevron(k,1, 2)(p,\n {{1, 2}, {}});", out)
        self.assertEqual(out.count("\n"), source.count("\n"))

    def test_launch_inside_a_macro(self):
        out = rewrite("#define L(k) k<<<1, 1>>>()\n")
        self.assertEqual(out, "#define L(k) ::cohort::compat::chevron(k,1, 1)()\n")

    def test_launches_in_comments_and_strings_are_untouched(self):
        source = '// k<<<1,1>>>()\nconst char* s = "k<<<1,1>>>()";\n'
        self.assertEqual(rewrite(source), source)

    def test_shift_and_closing_templates_are_untouched(self):
        source = "std::vector<std::vector<std::pair<int,int>>> v; x = a << b >> c;"
        self.assertEqual(rewrite(source), source)

    def test_deduced_template_kernel_goes_through_a_thunk(self):
        source = "template <class T> __global__ void k(T* p) {}\nvoid f() { k<<<1, 2>>>(p); k<int><<<1, 2>>>(p); }"
        out = rewrite(source)
        self.assertIn("::cohort::compat::chevron_deduced([](auto... cohort_a) { k(cohort_a...); },1, 2)(p);", out)
        self.assertIn("::cohort::compat::chevron(k<int>,1, 2)(p);", out)

    def test_blanks_inside_the_chevrons(self):
        for launch in ("k << < g, b >> > (x);", "k< < <g, b> > >(x);", "k <<<g, b>> >(x);"):
            self.assertIn("::cohort::compat::chevron(k", rewrite(launch), launch)

    def test_leading_template_arguments_with_the_rest_deduced(self):
        source = "template <bool B, class T> __global__ void k(T* p) {}\nvoid f() { k<true><<<1, 2>>>(p); }"
        self.assertIn("chevron_deduced([](auto... cohort_a) { k<true>(cohort_a...); },1, 2)(p)", rewrite(source))

    def test_default_arguments_go_through_a_typed_thunk(self):
        source = "__global__ void k(int* p, int n, int* q = NULL) {}\nvoid f() { k<<<1, 2>>>(p, 3); }"
        self.assertIn("chevron_deduced<decltype(&k)>([](auto... cohort_a) { k(cohort_a...); },1, 2)(p, 3)",
                      rewrite(source))

    def test_default_arguments_of_a_qualified_kernel(self):
        source = "namespace ns { __global__ void k(int* p, int n = 3) {} }\nvoid f() { ns::k<<<1, 2>>>(p); }"
        self.assertIn("chevron_deduced<decltype(&ns :: k)>([](auto... cohort_a) { ns::k(cohort_a...); }",
                      rewrite(source))

    def test_a_condition_before_a_parenthesized_kernel(self):
        out = rewrite("void f() { if (c) (k)<<<1, 1>>>(x); while (c) (*t[i])<<<1, 1>>>(x); }")
        self.assertIn("if (c) ::cohort::compat::chevron((k),1, 1)(x);", out)
        self.assertIn("while (c) ::cohort::compat::chevron((*t[i]),1, 1)(x);", out)

    def test_operator_shift_specializations_are_not_launches(self):
        for source in ("template <class T> std::ostream& operator<< <T>(std::ostream&, const X<T>&);",
                       "friend std::ostream& operator<<<>(std::ostream&, const X&);",
                       "friend bool operator< <>(const A&, const A&);"):
            self.assertEqual(rewrite(source), source)
        self.assertIn("::cohort::compat::chevron(k", rewrite("bool operator<<<T>(S, T); void f() { k<<<1, 1>>>(); }"))

    def test_a_macro_that_is_a_launch_configuration(self):
        # `#define KERNEL_ARGS2(grid, block) <<<grid, block>>>`, as code shared with HIP writes it: the
        # definition stays, each use becomes a launch, its arguments in place of the parameters.
        source = ("#define KERNEL_ARGS2(grid, block) <<< grid, block >>>\n#define CFG <<<1, 32>>>\n"
                  "#define V(...) <<<__VA_ARGS__>>>\n"
                  "void f() { k KERNEL_ARGS2(dim3(1, 2), 32)(x, y); ns::k<int> V(g, b,\n 0, s)(x); k CFG (x); }")
        out = rewrite(source)
        self.assertTrue(out.startswith(source.split("void")[0]))
        self.assertIn("::cohort::compat::chevron(k ,dim3 ( 1 , 2 ) , 32)(x, y);", out)
        self.assertIn("::cohort::compat::chevron(ns::k<int> ,g, b, 0, s)\n(x);", out)
        self.assertIn("::cohort::compat::chevron(k ,1 , 32) (x);", out)
        self.assertEqual(out.count("\n"), source.count("\n"))

    def test_a_configuration_macro_of_a_deduced_kernel(self):
        source = "template <class T> __global__ void k(T* p) {}\n#define C(g, b) <<<g, b>>>\nvoid f() { k C(1, 2)(p); }"
        self.assertIn("chevron_deduced([](auto... cohort_a) { k (cohort_a...); },1 , 2)(p);", rewrite(source))

    def test_a_macro_that_begins_a_launch_but_is_not_its_configuration_is_an_error(self):
        with self.assertRaises(RewriteError) as caught:
            rewrite("#define BAD(g) <<<g, 1>>> + 1\n")
        self.assertEqual(str(caught.exception), "1: error: a macro that begins with '<<<' must be a launch's whole "
                         "configuration, as in '#define CONFIG(g, b) <<<g, b>>>'")
        with self.assertRaises(RewriteError) as caught:
            rewrite("#define C(g, b) <<<g, b>>>\nvoid f() { k C(1)(x); }")
        self.assertEqual(str(caught.exception), "2: error: a configuration macro given 1 arguments for 2 parameters")

    # Found by fuzz_cohort_rewrite.py:
    def test_a_launch_right_after_a_colon(self):
        self.assertIn("case 1: ::cohort::compat::chevron(k,1, 1)(x);", rewrite("switch (n) { case 1:k<<<1, 1>>>(x); }"))
        self.assertIn("case 1:\\\n ::cohort::compat::chevron(k", rewrite("#define L case 1:\\\nk<<<1, 1>>>(x)\n"))

    def test_a_global_kernel_after_a_loop_header(self):
        out = rewrite("void f() { for (int i = 0; i < 1; ++i) ::k<<<1, 1>>>(x); }")
        self.assertIn("for (int i = 0; i < 1; ++i) ::cohort::compat::chevron(::k,1, 1)(x);", out)

    def test_a_macro_launching_a_parenthesized_kernel(self):
        # The kernel expression stops at the macro's parameter list.
        self.assertEqual(rewrite("#define L() (pointer)<<<1, 1>>>(x)\n"),
                         "#define L() ::cohort::compat::chevron((pointer),1, 1)(x)\n")

    def test_line_breaks_kept_in_a_macro_are_continuations(self):
        source = "#define L(x) k<<<1, 1>\\\n>\\\n>(x)\nint after;"
        self.assertEqual(rewrite(source), "#define L(x) ::cohort::compat::chevron(k,1, 1)\\\n\\\n(x)\nint after;")

    def test_shifts_and_comparisons_copied_into_a_rewrite_stay_one_token(self):
        # The tokenizer splits `>>` and `>=` (a template's '>' is a token of its own); text the rewrite copies
        # keeps them whole. Found by fuzz_cohort_rewrite.py: `( n > > 1 )` in a configuration macro's use.
        out = rewrite("#define C(g, b) <<<g, b>>>\nvoid f() { k C((n >> 1), b >= 2 ? 1 : 2)(x); }")
        self.assertIn("::cohort::compat::chevron(k ,( n >> 1 ) , b >= 2 ? 1 : 2)(x);", out)
        out = rewrite('void f() { asm("add.u32 %0, %1, %2;" : "=r"(r) : "r"(a >> 1), "r"(b)); }')
        self.assertIn("::cohort::compat::ptx::as<std::uint32_t>(a >> 1)", out)
        out = rewrite("__global__ void k(S<(N >> 1)> s, int n = 1) {}")
        self.assertIn("static_cast<void (*)(S < ( N >> 1 ) > s , int n)>(&k)", out)

    def test_missing_close_is_an_error(self):
        with self.assertRaises(RewriteError):
            rewrite("k<<<1, 1;")


class SharedMemory(unittest.TestCase):
    def test_block_scope_becomes_a_pointer(self):
        out = rewrite("void f() { extern __shared__ float s[]; }")
        self.assertEqual(out, "void f() { float* const s = ::cohort::dynamic_shared<float>(); }")

    def test_alignment_and_multiword_types(self):
        out = rewrite("void f() { extern __shared__ __align__(16) unsigned char s[]; }")
        self.assertIn("unsigned char* const s = ::cohort::dynamic_shared<unsigned char>();", out)

    def test_namespace_scope_becomes_an_accessor(self):
        out = rewrite("namespace n { extern __shared__ int s[]; }")
        self.assertIn("static constexpr ::cohort::compat::dynamic_shared_array<int> s{};", out)

    def test_template_parameter_type(self):
        out = rewrite("template <class T> struct S { operator T*() { extern __shared__ T s[]; return s; } };")
        self.assertIn("T* const s = ::cohort::dynamic_shared<T>();", out)

    def test_inside_a_macro_definition(self):
        out = rewrite("#define SMEM(T) extern __shared__ T smem[]\nvoid f() { SMEM(float); }\n")
        self.assertEqual(
            out,
            "#define SMEM(T) [[maybe_unused]] static constexpr ::cohort::compat::dynamic_shared_array<T> smem{}\n"
            "void f() { SMEM(float); }\n",
        )

    def test_not_an_array_is_an_error(self):
        with self.assertRaises(RewriteError):
            rewrite("void f() { extern __shared__ float s; }")

    def test_alignas_moves_before_shared(self):
        out = rewrite("void f() { __shared__ alignas(16) float b[4]; }")
        self.assertIn("alignas(16) __shared__ float b[4];", out)

    def test_alignas_moves_to_the_front_of_the_specifiers(self):
        out = rewrite("void f() { volatile __shared__ alignas(8) double d; }")
        self.assertEqual(out, "void f() { alignas(8) volatile __shared__ double d; }")

    def test_static_before_shared_is_dropped(self):
        # __shared__ is `static thread_local` on the host: a second `static` would not compile.
        self.assertEqual(rewrite("void f() { static __shared__ int s[32]; }"), "void f() { __shared__ int s[32]; }")

    def test_static_after_shared_is_dropped(self):
        self.assertEqual(rewrite("void f() { __shared__ static int cnt; }"), "void f() { __shared__ int cnt; }")

    def test_static_among_other_specifiers_is_dropped(self):
        out = rewrite("static volatile __shared__ float a[8]; __shared__ volatile static int b;")
        self.assertEqual(out, "volatile __shared__ float a[8]; __shared__ volatile int b;")
        out = rewrite("void f() { static __device__ __shared__ __align__(16) int v[4]; }")
        self.assertEqual(out, "void f() { __device__ __shared__ __align__(16) int v[4]; }")

    def test_static_with_alignas(self):
        out = rewrite("void f() { static __shared__ alignas(16) float b[4]; }")
        self.assertEqual(out, "void f() { alignas(16) __shared__ float b[4]; }")

    def test_static_in_a_macro_and_across_lines(self):
        out = rewrite("#define SMEM(T, n) static __shared__ T n[32]\n")
        self.assertEqual(out, "#define SMEM(T, n) __shared__ T n[32]\n")
        self.assertEqual(rewrite("void f() { static\n  __shared__ int s; }"), "void f() { \n  __shared__ int s; }")
        out = rewrite("#define SMEM(n) static \\\n  __shared__ \\\n  alignas(8) int n\n")
        self.assertEqual(out, "#define SMEM(n) alignas(8) \\\n  __shared__ \\\n int n\n")

    def test_type_before_shared(self):
        self.assertEqual(rewrite("void f() { extern float __shared__ s[]; }"),
                         "void f() { float* const s = ::cohort::dynamic_shared<float>(); }")

    def test_other_statics_are_untouched(self):
        source = "static int a; __shared__ int b; static const int c = static_cast<int>(1.0);"
        self.assertEqual(rewrite(source), source)


class InlinePtx(unittest.TestCase):
    def test_known_instructions_become_calls(self):
        out = rewrite('__device__ unsigned lane() { unsigned l; asm volatile("mov.u32 %0, %%laneid;" : "=r"(l)); }')
        self.assertIn("[&]() { (l) = ::cohort::compat::ptx::as<", out)
        self.assertIn("::cohort::compat::ptx::laneid()", out)
        self.assertNotIn("asm", out)

    def test_operands_registers_and_carries(self):
        out = rewrite('void f() { asm("{ .reg .u32 t; add.cc.u32 t, %1, %2; addc.u32 %0, %1, %2; }" '
                      ': "=r"(h) : "r"(a), "r"(b)); }')
        self.assertIn("unsigned cohort_ptx_carry = 0; std::uint32_t cohort_ptx_t{};", out)
        self.assertIn("add_carry<std::uint32_t>(::cohort::compat::ptx::as<std::uint32_t>(a)", out)

    def test_fences_with_only_clobbers(self):
        self.assertIn("ptx::fence();", rewrite('void f() { asm volatile("membar.gl;" ::: "memory"); }'))

    def test_atomics_conversions_and_float_functions(self):
        out = rewrite('void f() { asm volatile("red.release.gpu.global.add.u32 [%0], %1;" :: "l"(p), "r"(v)); }')
        self.assertIn("atomic_update<std::uint32_t>(::cohort::compat::ptx::address(p), "
                      "::cohort::compat::ptx::as<std::uint32_t>(v), ::cohort::compat::ptx::atomic_op::add, "
                      "std::memory_order_release);", out)
        out = rewrite('void f() { asm("atom.global.cas.b32 %0, [%1], %2, %3;" : "=r"(o) : "l"(p), "r"(a), "r"(b)); }')
        self.assertIn("(o) = ::cohort::compat::ptx::as<std::remove_cvref_t<decltype((o))>>(::cohort::compat::ptx::"
                      "atomic_cas<std::uint32_t>(", out)
        out = rewrite('void f() { asm("cvt.rzi.s32.f32 %0, %1;" : "=r"(i) : "f"(x)); }')
        self.assertIn("convert_integral<std::int32_t, float>(::cohort::compat::ptx::as<float>(x), "
                      "::cohort::compat::ptx::rounding::zero)", out)
        self.assertIn("std::exp2(::cohort::compat::ptx::as<float>(x))",
                      rewrite('void f() { asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x)); }'))
        self.assertIn("__syncthreads();", rewrite('void f() { asm volatile("bar.sync 0;"); }'))

    def test_forms_that_would_be_wrong_are_refused(self):
        # A float to integer cvt needs an integer rounding; a 32-bit shared address cannot hold a host pointer;
        # a barrier of some of the block's threads is not __syncthreads.
        for instruction in ("cvt.s32.f32 %0, %1", "cvta.to.shared.u32 %0, %1", "bar.sync 1, 64",
                            "atom.global.add.v2.f32 %0, [%1], %2", "div.rz.f32 %0, %1, %2"):
            out = rewrite('void f() { asm("' + instruction + ';" : "=r"(a) : "r"(b), "r"(c)); }')
            self.assertIn("the inline PTX instruction `" + instruction + "` is not supported", out)

    def test_an_unknown_instruction_is_a_compile_error_naming_it(self):
        out = rewrite('void f() { asm("cvt.rni.sat.s8.f32 %0, %1;" : "=h"(i) : "f"(x)); }\nint after;')
        self.assertIn('static_assert(false, "cohort: the inline PTX instruction `cvt.rni.sat.s8.f32 %0, %1` is not '
                      "supported on the host backend", out)
        self.assertEqual(out.count("\n"), 1)


class Members(unittest.TestCase):
    def test_builtin_named_fields_are_untouched(self):
        # threadIdx & co. are variables, not macros: CUDA's field names need no rewriting.
        source = "p.warpSize; c->gridDim = x; c.blockDim = y; int w = warpSize; dim3 gridDim(2, 1);"
        self.assertEqual(rewrite(source), source)


class ConstantRegistration(unittest.TestCase):
    REGISTERED = ("[[maybe_unused]] static const bool COHORT_COMPAT_UNIQUE(cohort_constant_registered_) = "
                  "::cohort::compat::register_constant(__builtin_addressof({0}), sizeof({0}));")

    def test_each_defined_variable_is_registered_after_its_declaration(self):
        out = rewrite("__constant__ int o[2] = {1, 2}, s{3}, t = f(a, b);\nint after;")
        self.assertEqual(out, "__constant__ int o[2] = {1, 2}, s{3}, t = f(a, b); " + self.REGISTERED.format("o") + " "
                         + self.REGISTERED.format("s") + " " + self.REGISTERED.format("t") + "\nint after;")

    def test_template_arguments_in_the_type(self):
        out = rewrite("namespace n { static __constant__ std::array<int, 3> table[2]; }")
        self.assertIn(self.REGISTERED.format("table") + " }", out)
        self.assertEqual(out.count("register_constant"), 1)

    def test_declarations_templates_and_macros_are_untouched(self):
        for source in ("extern __constant__ float e[];", "template <class T> __constant__ T v;",
                       "#define C __constant__ int x;\n", "void f() { __constant__ int x; }"):
            self.assertEqual(rewrite(source), source)


class Registration(unittest.TestCase):
    def test_non_template_definition_registers(self):
        out = rewrite("__global__ void k(int* p, int n = 3) { }")
        self.assertIn("register_global(static_cast<void (*)(int * p , int n)>(&k))", out)

    def test_right_after_an_angle_bracket_include(self):
        # The include's '>' is not a template's: the kernel below it registers.
        self.assertIn("register_global(static_cast<void (*)(int * p)>(&k))",
                      rewrite("#include <cstdio>\n__global__ void k(int* p) { }\n"))

    def test_a_conditional_parameter_registers_by_name(self):
        out = rewrite("__global__ void k(int* p,\n#ifdef X\nint q,\n#endif\nint n) { }\n")
        self.assertIn("register_global(&k)", out)
        self.assertEqual(out.count("\n"), 5)

    def test_a_comparison_in_a_conditional_of_the_parameter_list(self):
        # `#if N > 1` is not a template bracket: the default argument after it is seen.
        source = "__global__ void k(int* p,\n#if N > 1\n int n = 3\n#else\n int n\n#endif\n) {}\nvoid f() { k<<<1, 1>>>(p); }"
        self.assertIn("chevron_deduced<decltype(&k)>([](auto... cohort_a) { k(cohort_a...); },1, 1)(p)", rewrite(source))

    def test_templates_and_declarations_do_not(self):
        self.assertNotIn("register_global", rewrite("template <class T> __global__ void k(T* p) { }"))
        self.assertNotIn("register_global", rewrite("__global__ void k(int* p);"))

    def test_launch_bounds_are_registered(self):
        out = rewrite("namespace a { __global__ void __launch_bounds__(256, 2) k(float x) { } }")
        self.assertIn("(&k), dim3(1, 1, 1), static_cast<int>(256)); }", out)
        out = rewrite("__global__ void __launch_bounds__(f(2, 3) * B) k(float x) { }")
        self.assertIn("dim3(1, 1, 1), static_cast<int>(f ( 2 , 3 ) * B));", out)
        out = rewrite("__global__ void __cluster_dims__(2, 1, 1) __launch_bounds__(64) k(float x) { }")
        self.assertIn("dim3(2 , 1 , 1), static_cast<int>(64));", out)

    def test_cluster_dims_are_registered(self):
        out = rewrite("__global__ void __cluster_dims__(2, 1, 1) k(float* x) { }")
        self.assertIn("register_global(static_cast<void (*)(float * x)>(&k), dim3(2 , 1 , 1));", out)

    def test_host_sources_get_no_prelude(self):
        self.assertEqual(rewrite("int w = p.warpSize;\n", "m.cpp", device=False), '#line 1 "m.cpp"\nint w = p.warpSize;\n')

    def test_prelude(self):
        out = rewrite("int x;\n", "dir/x.cu")
        self.assertTrue(out.startswith("#ifndef __CUDA_ARCH__\n#define __CUDA_ARCH__ 900\n"))
        self.assertIn('#include <cuda_runtime.h>\n#line 1 "dir/x.cu"\nint x;\n', out)


class Headers(unittest.TestCase):
    def test_quoted_headers_beside_the_file_are_rewritten(self):
        with tempfile.TemporaryDirectory() as root:
            os.makedirs(os.path.join(root, "src", "kernels"))

            def write(name, text):
                with open(os.path.join(root, "src", name), "w") as f:
                    f.write(text)

            write("main.cu", '#include "kernels/k.cuh"\n#include "plain.h"\n#include <vector>\nint main() {}\n')
            write("kernels/k.cuh", '#include "util.h"\n__global__ void k() { extern __shared__ int s[]; }\n')
            write("kernels/util.h", "int util();\n")
            write("plain.h", "int plain();\n")
            project = Project(os.path.join(root, "out"))
            out = project.source(os.path.join(root, "src", "main.cu"))
            header = [line for line in out.splitlines() if "k.cuh" in line][0]
            self.assertIn(os.path.join(root, "out"), header)
            self.assertIn('#include "%s"' % os.path.join(root, "src", "plain.h"), out)
            self.assertIn("#include <vector>", out)
            copy = header.split('"')[1]
            with open(copy) as f:
                text = f.read()
            self.assertTrue(text.startswith('#line 1 "%s"' % os.path.join(root, "src", "kernels", "k.cuh")))
            self.assertIn("int* const s = ::cohort::dynamic_shared<int>();", text)
            self.assertIn('#include "%s"' % os.path.join(root, "src", "kernels", "util.h"), text)
            self.assertEqual(len(project.read), 4)

    def test_errors_name_the_file_they_are_in(self):
        with tempfile.TemporaryDirectory() as root:
            with open(os.path.join(root, "bad.cuh"), "w") as f:
                f.write("void g() {\n  k<<<1, 1;\n}\n")
            with open(os.path.join(root, "main.cu"), "w") as f:
                f.write('#include "bad.cuh"\n')
            with self.assertRaises(RewriteError) as caught:
                Project(os.path.join(root, "out")).source(os.path.join(root, "main.cu"))
            self.assertEqual(caught.exception.path, os.path.join(root, "bad.cuh"))
            self.assertEqual(str(caught.exception), "2: error: '<<<' without a matching '>>>('")

    def test_a_launch_two_quoted_headers_deep(self):
        # outer.h launches nothing, but includes a header that does: both are rewritten.
        with tempfile.TemporaryDirectory() as root:
            for name, text in (("main.cu", '#include "outer.h"\n'), ("outer.h", '#include "inner.cuh"\n'),
                               ("inner.cuh", "void g() { k<<<1, 1>>>(); }\n")):
                with open(os.path.join(root, name), "w") as f:
                    f.write(text)
            project = Project(os.path.join(root, "out"))
            out = project.source(os.path.join(root, "main.cu"))
            outer = [line for line in out.splitlines() if "outer.h" in line][0].split('"')[1]
            self.assertTrue(outer.startswith(os.path.join(root, "out")))
            with open(outer) as f:
                inner = [line for line in f.read().splitlines() if "inner.cuh" in line][-1].split('"')[1]
            with open(inner) as f:
                self.assertIn("::cohort::compat::chevron(k,1, 1)();", f.read())

    def test_bytes_that_are_not_utf8_pass_through(self):
        with tempfile.TemporaryDirectory() as root:
            with open(os.path.join(root, "latin1.cu"), "wb") as f:
                f.write(b"// caf\xe9\nvoid g() { k<<<1, 1>>>(); }\n")
            out = Project(os.path.join(root, "out")).source(os.path.join(root, "latin1.cu"))
            self.assertIn("caf\udce9", out)
            self.assertEqual(out.encode("utf-8", "surrogateescape").count(b"caf\xe9"), 1)

    def test_missing_headers_are_left_to_the_compiler(self):
        self.assertEqual(rewrite('#include "nowhere.h"\n', None, lambda name: None), '#include "nowhere.h"\n')


if __name__ == "__main__":
    unittest.main()
