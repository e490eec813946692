#!/usr/bin/env python3
"""A seeded fuzzer of the spellings cohort_rewrite.py must read.

Each case is a construct the rewriter changes (a launch, a __global__ definition, an extern __shared__
array), drawn from pools of the forms real CUDA code writes (qualified and template kernels, function
pointers and members, configurations with templates, lambdas and parentheses, braced and nested
arguments, macro definitions, configuration macros, conditionals in argument and parameter lists, definitions right after
an #include <...>) and spelled with random blanks between its tokens: spaces, tabs, line breaks, block
and line comments, line continuations (inside a macro only those a directive may hold). The expected
rewrite is built from the same pieces, independently of the rewriter, and compared token by token;
the line count must not change. With --compile, a sample of the cases, rewritten, is compiled with
the C++ compiler against cohort's headers, so the canonical form is checked to mean what the source
meant.

  fuzz_cohort_rewrite.py [--seed N] [--cases N] [--compile CXX -I dir ...]
"""

import argparse
import os
import random
import re
import subprocess
import sys
import tempfile

import cohort_rewrite

CHEVRON = "::cohort::compat::chevron("
# Declarations every case may use: kernels of each kind the rewriter tells apart, and the values
# a configuration or an argument list names.
HARNESS = """#include <algorithm>
#include <utility>
#include <vector>
namespace ns {
__global__ void k(int* a, int* b) {}
namespace inner {
__global__ void k(int* a, int* b) {}
}
}
__global__ void k(int* a, int* b) {}
template <class T, int N> __global__ void kt(T* a, T* b) {}
template <bool B, class T> __global__ void kb(T* a, T* b) {}
template <class T> __global__ void kd(T* a, T* b) {}
template <class P> __global__ void knest(int* a, int* b) {}
__global__ void kdef(int* a, int* b, int n = 3) {}
void (*table[2])(int*, int*) = {k, k};
void (*pointer)(int*, int*) = k;
struct Holder { void (*member)(int*, int*); } holder{k}, *holder_ptr = &holder;
template <class T> struct traits { static constexpr int blocks = 2; };
template <class T> constexpr int v = 32;
inline int* pick(int* a, int*) { return a; }
int g = 1, b = 32, n = 4, sizes[2] = {1, 2};
dim3 grid(2, 1);
std::size_t shared = 64;
cudaStream_t stream = nullptr, streams[2] = {};
int *x = nullptr, *y = nullptr;
"""

# (kernel expression, what the launch becomes: chevron, deduced (thunk) or typed (thunk with the kernel's type))
KERNELS = [
    ("k", "chevron"), ("ns :: k", "chevron"), (":: k", "chevron"), ("ns :: inner :: k", "chevron"),
    ("kt < int , 4 >", "chevron"), ("kt < int , ( 4 > 2 ) >", "chevron"), ("table [ 0 ]", "chevron"),
    ("( pointer )", "chevron"), ("( * pointer )", "chevron"), ("holder . member", "chevron"),
    ("holder_ptr -> member", "chevron"), ("knest < std :: pair < int , std :: pair < int , int > > >", "chevron"),
    ("kb < true >", "deduced"), ("kd", "deduced"), ("kdef", "typed"),
]
GRIDS = ["g", "grid", "dim3 ( g , 2 )", "dim3 ( 2 , 2 , 1 )", "( n + 255 ) / 256", "std :: max < int > ( 1 , n )",
         "( n >> 1 ) + 1", "[ & ] { return g ; } ( )", "sizes [ 1 ]", "traits < float > :: blocks",
         "( n > 2 ? 2 : 1 )", "{ 2 , 1 }"]
BLOCKS = ["b", "256", "dim3 ( 32 , 4 )", "b * 2", "v < int >"]
SHARED = ["0", "shared", "n * sizeof ( float )", "sizeof ( std :: pair < int , int > )"]
STREAMS = ["stream", "0", "nullptr", "streams [ 1 ]"]
ARGUMENTS = ["( x , y )", "( pick ( x , y ) , y )", "( x + 0 , & y [ 0 ] )", "( true ? x : y , y )",
             "( [ & ] { return x ; } ( ) , y )", "( static_cast < int * > ( x ) , y )"]
# A statement holding the launch (L), in a function body.
CONTEXTS = ["L ;", "if ( n > 0 ) L ;", "if ( n ) { } else L ;", "for ( int i = 0 ; i < 1 ; ++ i ) L ;",
            "auto l = [ & ] { L ; } ; l ( ) ;", "switch ( n ) { case 1 : L ; break ; default : break ; }"]
OPENINGS = [["<<<"], ["<<", "<"], ["<", "<<"], ["<", "<", "<"]]
CLOSINGS = [[">>>"], [">>", ">"], [">", ">>"], [">", ">", ">"]]

PARAMETERS = ["int * p", "const float * __restrict__ in", "int n", "float2 v", "unsigned long long * c",
              "std :: pair < int , int > pr", "dim3 d", "int m = 3", "const int * q = nullptr"]
TEMPLATE_HEADS = ["", "", "template < class T >", "template < typename T , int N >", "template < bool B >"]
SCOPES = [("", ""), ("namespace a {", "}"), ("namespace a :: b {", "}"), ("namespace {", "}"),
          ('extern "C++" {', "}")]
PREFACES = ["", "#include <vector>\n", "#include <cstdio>\n", "#define MAX(a, b) ((a) > (b) ? (a) : (b))\n",
            "struct S { int a ; } ;", "static_assert ( sizeof ( int ) > 2 ) ;",
            "using V = std :: vector < std :: vector < int > > ;", "// a comment with > and <\n",
            "/* template <class T> */"]
SHARED_TYPES = ["float", "unsigned char", "int2", "double", "unsigned long long"]

BLANKS = ["", " ", "  ", "\t", "\n", " /* c */ ", "/* a\nb */", " // c\n", "\\\n"]
DIRECTIVE_BLANKS = ["", " ", "\t", " /* c */ ", "/* a\nb */", "\\\n"]  # a macro's: no line ends it
ATOM = re.compile(r'\s+|"[^"]*"|[A-Za-z_]\w*|\d+|::|->|\.\.\.|\+\+|--|&&|\|\||[<>=!]=|<<<|>>>|<<|>>|\S')


def atoms(text):
    return [a for a in ATOM.findall(text) if not a.isspace()]


def glued(a, b):
    """Whether `a` and `b` written with nothing between them are still read as the same two tokens."""
    if a[-1] in "<>" and b[0] in "<>":
        return set(a + b) <= set("<") or set(a + b) <= set(">")  # a launch's chevrons, or a template's closers
    return a[-1] in "()[]{},;" or b[0] in "()[]{},;" or (a[-1].isalnum() or a[-1] == "_") != (b[0].isalnum() or b[0] == "_")


def spell(rng, pieces, directive=False):
    """The pieces (each a string of blank-separated atoms, or a list of atoms) written with random blanks."""
    tokens = [t for p in pieces for t in (p if isinstance(p, list) else atoms(p))]
    text = tokens[0]
    for a, b in zip(tokens, tokens[1:]):
        blank = rng.choice(DIRECTIVE_BLANKS if directive else BLANKS)
        if blank in ("", "\\\n") and not glued(a, b):  # a continuation joins the lines' tokens too
            blank = " " + blank
        if blank.startswith("/") and a.endswith("/"):
            blank = " " + blank
        text += blank + b
    return text


class Case:
    """A source, the rewrite expected of it, and a compile unit's worth of it (or None)."""

    def __init__(self, source, expected, unit=None):
        self.source, self.expected, self.unit = source, expected, unit


def launch_case(rng, index):
    kernel, kind = rng.choice(KERNELS)
    config = [rng.choice(GRIDS), rng.choice(BLOCKS)]
    if rng.random() < 0.6:
        config.append(rng.choice(SHARED))
        if rng.random() < 0.5:
            config.append(rng.choice(STREAMS))
    arguments = rng.choice(ARGUMENTS)
    conditional = rng.random() < 0.1  # a conditional in the argument list
    if conditional:
        arguments = "( x ,\n#if COHORT_FUZZ_N > 1\n y\n#else\n x\n#endif\n)"
    configuration = " , ".join(config)
    if kind == "chevron":
        opened = f"{CHEVRON} {kernel} , {configuration} )"
    else:
        signature = f"< decltype ( & {kernel} ) >" if kind == "typed" else ""
        opened = (f"::cohort::compat::chevron_deduced {signature} ( [ ] ( auto ... cohort_a ) {{ {kernel} "
                  f"( cohort_a ... ) ; }} , {configuration} )")
    context = rng.choice(CONTEXTS)
    before, after = context.split("L", 1)
    in_macro = not conditional and rng.random() < 0.2
    launch = [kernel, rng.choice(OPENINGS), configuration, rng.choice(CLOSINGS)]
    # Through a configuration macro (`#define CONFIG(g, b) <<<g, b>>>`), given no braces, which the
    # preprocessor would split at their commas.
    configured = not (conditional or in_macro) and "{" not in configuration and rng.random() < 0.15
    if configured:
        name = f"CONFIG_{index}"
        parameters = " , ".join(f"p{i}" for i in range(len(config)))
        definition = (f"#define {name}({parameters}) "
                      + spell(rng, [rng.choice(OPENINGS), parameters, rng.choice(CLOSINGS)], directive=True) + "\n")
        body = spell(rng, [before] * bool(before.strip()) + [kernel, name, "(", configuration, ")", arguments, after])
        source = definition + f"void case_{index}() {{ {body} }}\n"
        expected = definition + f"void case_{index}() {{ {before} {opened} {arguments} {after} }}\n"
    elif in_macro:
        name = f"LAUNCH_{index}"
        source = (f"#define {name}() " + spell(rng, [before] * bool(before.strip()) + launch + [arguments] +
                                                [after.rstrip(" ;")] * bool(after.strip(" ;")), directive=True)
                  + f"\nvoid case_{index}() {{ {name}() ; }}\n")
        expected = f"#define {name}() {before} {opened} {arguments} {after.rstrip(' ;')}\nvoid case_{index}() {{ {name}() ; }}\n"
    elif conditional:  # the directives on lines of their own, as written
        body = spell(rng, [before] * bool(before.strip()) + launch) + " " + arguments + " " + spell(rng, [after])
        source = f"void case_{index}() {{ {body} }}\n"
        expected = f"void case_{index}() {{ {before} {opened} {arguments} {after} }}\n"
    else:
        body = spell(rng, [before] * bool(before.strip()) + launch + [arguments, after])
        source = f"void case_{index}() {{ {body} }}\n"
        expected = f"void case_{index}() {{ {before} {opened} {arguments} {after} }}\n"
    return Case(source, expected, source)


def definition_case(rng, index):
    preface = rng.choice(PREFACES)
    head = rng.choice(TEMPLATE_HEADS)
    opening, closing = rng.choice(SCOPES)
    name = f"kernel_{index}"
    parameters = rng.sample(PARAMETERS, rng.randint(0, 3))
    parameters.sort(key=lambda p: "=" in p)  # defaults last
    conditional = rng.random() < 0.15
    bounds = rng.choice(["", "__launch_bounds__ ( 256 )", "__launch_bounds__ ( 256 , 2 )"])
    listed = " , ".join(parameters)
    alternatives = "\n#if COHORT_FUZZ_N > 1\n int extra\n#else\n float extra\n#endif\n" + " ," * bool(parameters)
    start = [opening, head, "__global__ void", bounds, name, "("]
    end = [listed, ") { }", closing]
    spelled = [spell(rng, [p for p in part if p.strip()]) for part in (start, end)]
    source = preface + spelled[0] + (alternatives if conditional else " ") + spelled[1] + "\n"
    if conditional:
        listed = alternatives + listed
    registration = ""
    if not head:
        if conditional:
            kernel = f"& {name}"
        else:
            types = " , ".join(p.split("=")[0].strip() for p in parameters)
            kernel = f"static_cast < void ( * ) ( {types} ) > ( & {name} )"
        declared = " , dim3 ( 1 , 1 , 1 ) , static_cast < int > ( 256 )" if bounds else ""
        registration = ("[[ maybe_unused ]] static const bool COHORT_COMPAT_UNIQUE ( cohort_kernel_registered_ ) = "
                        f"::cohort::compat::register_global ( {kernel}{declared} ) ;")
    expected = preface + " ".join([opening, head, "__global__ void", bounds, name, "(", listed, ") { }", registration,
                                   closing]) + "\n"
    unit = None if preface.startswith("struct") else source  # one struct S in the compile unit
    return Case(source, expected, unit)


def shared_case(rng, index):
    element = rng.choice(SHARED_TYPES)
    name = f"smem_{index}"
    form = rng.choice([f"extern __shared__ {element} {name} [ ] ;", f"extern {element} __shared__ {name} [ ] ;",
                       f"extern __shared__ __align__ ( 16 ) {element} {name} [ ] ;",
                       f"extern __shared__ alignas ( 16 ) {element} {name} [ ] ;"])
    at_namespace_scope = rng.random() < 0.3
    if at_namespace_scope:
        replacement = (f"[[ maybe_unused ]] static constexpr ::cohort::compat::dynamic_shared_array < {element} > "
                       f"{name} {{ }} ;")
        source = f"namespace s{index} {{ {spell(rng, [form])} }}\n"
        return Case(source, f"namespace s{index} {{ {replacement} }}\n", source)
    replacement = f"{element} * const {name} = ::cohort::dynamic_shared < {element} > ( ) ;"
    source = f"__global__ void shared_{index}(int* out) {{ {spell(rng, [form])} out[0] = sizeof({name}[0]); }}\n"
    expected = (f"__global__ void shared_{index}(int* out) {{ {replacement} out[0] = sizeof({name}[0]); }} "
                "[[ maybe_unused ]] static const bool COHORT_COMPAT_UNIQUE ( cohort_kernel_registered_ ) = "
                f"::cohort::compat::register_global ( static_cast < void ( * ) ( int * out ) > ( & shared_{index} ) ) ;\n")
    return Case(source, expected, source)


GENERATORS = [launch_case, launch_case, launch_case, definition_case, shared_case]


def significant(text):
    return [t.text for t in cohort_rewrite.tokenize(text) if t.kind not in ("space", "comment", "newline")]


def check(case, templates):
    """A failure's description, or None."""
    try:
        out = cohort_rewrite.rewrite(case.source, templates=dict(templates))
    except cohort_rewrite.RewriteError as e:
        return f"error {e}"
    if significant(out) != significant(case.expected):
        return f"rewritten as:\n{out}\nexpected:\n{case.expected}"
    if out.count("\n") != case.source.count("\n"):
        return f"{case.source.count(chr(10))} lines became {out.count(chr(10))}:\n{out}"
    return None


def compile_units(units, compiler):
    """Compiles the units, rewritten after the harness, in one translation unit; the compiler's status."""
    source = HARNESS + "".join(units)
    text = cohort_rewrite.rewrite(source, "fuzz.cu")
    with tempfile.TemporaryDirectory(prefix="cohort-fuzz-") as scratch:
        path = os.path.join(scratch, "fuzz.cpp")
        with open(path, "w") as f:
            f.write(text)
        status = subprocess.call(compiler + ["-std=c++20", "-fsyntax-only", "-DCOHORT_FUZZ_N=2", "-x", "c++", path])
        if status != 0:
            print(f"the rewritten sample does not compile; its source:\n{source}", file=sys.stderr)
        return status


def main(argv):
    parser = argparse.ArgumentParser(description="Fuzz cohort_rewrite with random spellings.")
    parser.add_argument("--seed", type=int, default=20261129)
    parser.add_argument("--cases", type=int, default=3000)
    parser.add_argument("--compile", nargs=argparse.REMAINDER, help="compiler and flags for a sample of the cases")
    parser.add_argument("--sample", type=int, default=150, help="how many cases --compile compiles")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    templates = {}
    cohort_rewrite.rewrite(HARNESS, templates=templates)  # the harness's kernels launched through a thunk
    failures, units = 0, []
    for index in range(args.cases):
        case = rng.choice(GENERATORS)(rng, index)
        failure = check(case, templates)
        if failure:
            failures += 1
            if failures <= 5:
                print(f"case {index} (seed {args.seed}):\n{case.source}\n{failure}\n", file=sys.stderr)
        elif case.unit and len(units) < args.sample:
            units.append(case.unit)
    print(f"{args.cases - failures} of {args.cases} spellings rewritten as expected (seed {args.seed})")
    if failures:
        return 1
    if args.compile:
        if compile_units(units, args.compile) != 0:
            return 1
        print(f"{len(units)} rewritten cases compile")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
