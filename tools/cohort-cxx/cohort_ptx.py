"""Translates inline PTX (`asm("..." : outputs : inputs)`) into C++ for cohort's host backend.

g++ reads an asm statement's text as x86 assembly, so a kernel with inline PTX
does not build for a CPU. The instructions public CUDA code writes most
(special registers such as %laneid, bfe/bfi, prmt, cache-hinted loads and
stores, vabsdiff4, lop3, funnel shifts, extended-precision add/sub chains,
fences, bit counts, moves that pack and unpack) become calls to
compat/include/cohort_compat/ptx.hpp, in a lambda that stands where the asm
statement stood. Any other instruction becomes a compile error that names it,
where the statement stood (a preprocessor branch not taken never reaches it).
"""

import re


class Untranslatable(Exception):
    """An instruction (or asm form) the translator does not know; the message names it."""


# Element types of PTX type suffixes.
TYPES = {
    "u8": "std::uint8_t", "s8": "std::int8_t", "b8": "std::uint8_t",
    "u16": "std::uint16_t", "s16": "std::int16_t", "b16": "std::uint16_t",
    "u32": "std::uint32_t", "s32": "std::int32_t", "b32": "std::uint32_t", "f32": "float",
    "u64": "std::uint64_t", "s64": "std::int64_t", "b64": "std::uint64_t", "f64": "double",
}
SPECIAL_REGISTERS = {
    "%laneid": "::cohort::compat::ptx::laneid()",
    "%warpid": "::cohort::compat::ptx::warpid()",
    "%smid": "0u",
    "%nsmid": "static_cast<unsigned>(::cohort::get_device_properties().multiprocessor_count)",
    "%clock": "static_cast<unsigned>(clock64())",
    "%clock64": "static_cast<unsigned long long>(clock64())",
    "%globaltimer": "::cohort::compat::ptx::globaltimer()",
    "%lanemask_lt": "::cohort::compat::ptx::lanemask(-2)",
    "%lanemask_le": "::cohort::compat::ptx::lanemask(-1)",
    "%lanemask_eq": "::cohort::compat::ptx::lanemask(0)",
    "%lanemask_ge": "::cohort::compat::ptx::lanemask(1)",
    "%lanemask_gt": "::cohort::compat::ptx::lanemask(2)",
    "%tid.x": "threadIdx.x", "%tid.y": "threadIdx.y", "%tid.z": "threadIdx.z",
    "%ntid.x": "blockDim.x", "%ntid.y": "blockDim.y", "%ntid.z": "blockDim.z",
    "%ctaid.x": "blockIdx.x", "%ctaid.y": "blockIdx.y", "%ctaid.z": "blockIdx.z",
    "%nctaid.x": "gridDim.x", "%nctaid.y": "gridDim.y", "%nctaid.z": "gridDim.z",
}
STATE_SPACES = ("global", "shared", "local", "const", "param", "generic")
LOAD_QUALIFIERS = {"nc", "ca", "cg", "cs", "lu", "cv", "volatile", "relaxed", "acquire", "release", "mmio", "weak", "wb", "wt", "gpu",
                   "sys", "cta", "L1::no_allocate", "L2::128B", "L2::64B", "L2::256B", "L1::evict_last",
                   "L1::evict_first", "L1::evict_normal", "L1::no_allocate", "L2::cache_hint"}


class Asm:
    """One asm statement: its instruction text and operands (constraint, C++ expression text)."""

    def __init__(self, text, outputs, inputs, extended):
        self.text = text
        self.operands = outputs + inputs
        self.outputs = len(outputs)
        self.extended = extended  # with operands, the text writes '%' as '%%'



def translate(asm):
    """C++ statements equivalent to `asm` (raises Untranslatable)."""
    declared = {}  # .reg name -> C++ local
    body = []
    carry = False
    text = asm.text.replace("%%", "%") if asm.extended else asm.text
    # Instructions end at ';'. A '{' or '}' standing before or after one opens or closes a scope
    # for .reg declarations; one inside it is a vector operand.
    for raw in text.split(";"):
        instruction = " ".join(raw.split())
        while instruction.startswith("{") or instruction.startswith("}"):
            instruction = instruction[1:].strip()
        while instruction.endswith("}") and instruction.count("{") < instruction.count("}"):
            instruction = instruction[:-1].strip()
        if not instruction:
            continue
        if instruction.startswith(".reg"):
            body.append(register_declaration(instruction, declared))
            continue
        statement, uses_carry = instruction_statement(instruction, asm, declared)
        carry = carry or uses_carry
        body.append(statement)
    if carry:
        body.insert(0, "unsigned cohort_ptx_carry = 0;")
    return "[&]() { " + " ".join(body) + " }()"


def register_declaration(instruction, declared):
    m = re.fullmatch(r"\.reg\s+\.(\w+)\s+(.+)", instruction)
    if not m or m.group(1) not in TYPES:
        raise Untranslatable(instruction)
    names = []
    for name in m.group(2).split(","):
        name = name.strip()
        if not re.fullmatch(r"[%A-Za-z_][\w$]*", name):
            raise Untranslatable(instruction)
        local = "cohort_ptx_" + re.sub(r"\W", "_", name)
        declared[name] = local
        names.append(local)
    return f"{TYPES[m.group(1)]} {', '.join(names)}{{}};"


def split_operands(text):
    """Top-level comma-separated operands (a vector `{%0, %1}` is one)."""
    parts, depth, current = [], 0, ""
    for c in text:
        if c in "{[":
            depth += 1
        elif c in "}]":
            depth -= 1
        if c == "," and depth == 0:
            parts.append(current.strip())
            current = ""
        else:
            current += c
    if current.strip():
        parts.append(current.strip())
    return parts


class Operands:
    """Reads an instruction's operands as C++ expressions."""

    def __init__(self, asm, declared, instruction):
        self.asm, self.declared, self.instruction = asm, declared, instruction

    def value(self, operand, type_name):
        operand = operand.strip()
        if re.fullmatch(r"%\d+", operand):
            index = int(operand[1:])
            if index >= len(self.asm.operands):
                raise Untranslatable(self.instruction)
            return f"::cohort::compat::ptx::as<{type_name}>({self.asm.operands[index][1]})"
        if operand in self.declared:
            return f"::cohort::compat::ptx::as<{type_name}>({self.declared[operand]})"
        if operand in SPECIAL_REGISTERS:
            return f"::cohort::compat::ptx::as<{type_name}>({SPECIAL_REGISTERS[operand]})"
        if re.fullmatch(r"-?(0[xX][0-9a-fA-F]+|\d+)[uU]?", operand):
            return f"static_cast<{type_name}>({operand.rstrip('uU')}ull)"
        raise Untranslatable(self.instruction)

    def target(self, operand):
        """An lvalue to assign: an output operand or a declared register."""
        operand = operand.strip()
        if re.fullmatch(r"%\d+", operand):
            index = int(operand[1:])
            if index >= len(self.asm.operands):
                raise Untranslatable(self.instruction)
            return f"({self.asm.operands[index][1]})"
        if operand in self.declared:
            return self.declared[operand]
        raise Untranslatable(self.instruction)

    def assign(self, operand, value):
        lvalue = self.target(operand)
        return f"{lvalue} = ::cohort::compat::ptx::as<std::remove_cvref_t<decltype({lvalue})>>({value});"

    def address(self, operand):
        m = re.fullmatch(r"\[\s*([^\]+]+?)\s*(?:\+\s*(-?\w+))?\s*\]", operand.strip())
        if not m:
            raise Untranslatable(self.instruction)
        base = m.group(1)
        if re.fullmatch(r"%\d+", base) and int(base[1:]) < len(self.asm.operands):
            expression = f"::cohort::compat::ptx::address({self.asm.operands[int(base[1:])][1]})"
        elif base in self.declared:
            expression = f"::cohort::compat::ptx::address({self.declared[base]})"
        else:
            raise Untranslatable(self.instruction)
        offset = m.group(2)
        return f"({expression} + static_cast<std::uintptr_t>({offset}))" if offset else expression


def instruction_statement(instruction, asm, declared):
    """(C++ statement, whether it uses the carry flag) for one PTX instruction."""
    m = re.fullmatch(r"(@!?\S+\s+)?([\w.:]+)\s*(.*)", instruction)
    if not m or m.group(1):  # predicated instructions are not translated
        raise Untranslatable(instruction)
    opcode, rest = m.group(2), m.group(3)
    parts = opcode.split(".")
    name, suffixes = parts[0], parts[1:]
    args = split_operands(rest)
    ops = Operands(asm, declared, instruction)
    type_suffixes = [s for s in suffixes if s in TYPES]
    t = TYPES[type_suffixes[-1]] if type_suffixes else None

    def need(count):
        if len(args) != count:
            raise Untranslatable(instruction)

    ptx = "::cohort::compat::ptx::"
    if name == "mov" and t:
        need(2)
        if args[1].startswith("{"):  # pack: mov.b64 d, {lo, hi}
            pieces = split_operands(args[1][1:-1])
            width = 64 // len(pieces) if t.endswith("64_t") else 32 // len(pieces)
            piece_type = f"std::uint{width}_t"
            value = " | ".join(f"(static_cast<{t}>({ops.value(p, piece_type)}) << {width * i})"
                               for i, p in enumerate(pieces))
            return ops.assign(args[0], value), False
        if args[0].startswith("{"):  # unpack: mov.b64 {lo, hi}, s
            pieces = split_operands(args[0][1:-1])
            width = 64 // len(pieces) if t.endswith("64_t") else 32 // len(pieces)
            whole = ops.value(args[1], t)
            return " ".join(ops.assign(p, f"static_cast<std::uint{width}_t>({whole} >> {width * i})")
                            for i, p in enumerate(pieces)), False
        return ops.assign(args[0], ops.value(args[1], t)), False
    if name in ("ld", "ldu") and t:
        need(2)
        return vector_access(ops, args[0], args[1], suffixes, t, load=True, instruction=instruction), False
    if name == "st" and t:
        need(2)
        return vector_access(ops, args[1], args[0], suffixes, t, load=False, instruction=instruction), False
    if name == "bfe" and t:
        need(4)
        return ops.assign(args[0], f"{ptx}bfe<{t}>({ops.value(args[1], t)}, {ops.value(args[2], 'unsigned')}, "
                                   f"{ops.value(args[3], 'unsigned')})"), False
    if name == "bfi" and t:
        need(5)
        return ops.assign(args[0], f"{ptx}bfi<{t}>({ops.value(args[1], t)}, {ops.value(args[2], t)}, "
                                   f"{ops.value(args[3], 'unsigned')}, {ops.value(args[4], 'unsigned')})"), False
    if name == "prmt" and suffixes == ["b32"]:
        need(4)
        u = "std::uint32_t"
        return ops.assign(args[0], f"{ptx}prmt({ops.value(args[1], u)}, {ops.value(args[2], u)}, "
                                   f"{ops.value(args[3], u)})"), False
    if name == "vabsdiff4" and suffixes[:3] == ["u32", "u32", "u32"] and "sat" not in suffixes:
        u = "std::uint32_t"
        if suffixes[3:] == ["add"]:
            need(4)
            return ops.assign(args[0], f"{ptx}vabsdiff4_add({ops.value(args[1], u)}, {ops.value(args[2], u)}, "
                                       f"{ops.value(args[3], u)})"), False
        if not suffixes[3:]:
            need(3)
            return ops.assign(args[0], f"{ptx}vabsdiff4({ops.value(args[1], u)}, {ops.value(args[2], u)})"), False
    if name == "lop3" and suffixes == ["b32"]:
        need(5)
        u = "std::uint32_t"
        return ops.assign(args[0], f"{ptx}lop3({', '.join(ops.value(a, u) for a in args[1:])})"), False
    if name == "shf" and suffixes[:1] in (["l"], ["r"]) and suffixes[1:] in (["wrap", "b32"], ["clamp", "b32"]):
        need(4)
        u = "std::uint32_t"
        fn = "__funnelshift_" + suffixes[0] + ("c" if suffixes[1] == "clamp" else "")
        return ops.assign(args[0], f"{fn}({ops.value(args[1], u)}, {ops.value(args[2], u)}, "
                                   f"{ops.value(args[3], u)})"), False
    if name in ("popc", "clz", "brev", "bfind") and t and len(args) == 2:
        fn = {"popc": "std::popcount", "clz": "std::countl_zero", "brev": f"{ptx}brev", "bfind": f"{ptx}bfind"}[name]
        operand_type = t.replace("std::int", "std::uint") if name in ("popc", "clz") else t
        return ops.assign(args[0], f"{fn}({ops.value(args[1], operand_type)})"), False
    if name == "mul" and t and suffixes[0] in ("hi", "lo", "wide"):
        need(3)
        a, b = ops.value(args[1], t), ops.value(args[2], t)
        if suffixes[0] == "hi":
            return ops.assign(args[0], f"{ptx}mul_hi<{t}>({a}, {b})"), False
        if suffixes[0] == "lo":
            return ops.assign(args[0], f"static_cast<{t}>({a} * {b})"), False
        wide = t.replace("32", "64")
        return ops.assign(args[0], f"static_cast<{wide}>(static_cast<{wide}>({a}) * {b})"), False
    if name == "mad" and t and suffixes[0] == "lo" and "cc" not in suffixes:
        need(4)
        a, b, c = (ops.value(x, t) for x in args[1:])
        return ops.assign(args[0], f"static_cast<{t}>({a} * {b} + {c})"), False
    if name in ("add", "sub") and t and not t.startswith("float") and not t.startswith("double") and len(args) == 3:
        a, b = ops.value(args[1], t), ops.value(args[2], t)
        if "cc" not in suffixes:
            return ops.assign(args[0], f"static_cast<{t}>({a} {'+' if name == 'add' else '-'} {b})"), False
        fn = "add_carry" if name == "add" else "sub_borrow"
        return ops.assign(args[0], f"{ptx}{fn}<{t}>({a}, {b}, cohort_ptx_carry, false, true)"), True
    if name in ("addc", "subc") and t and len(args) == 3:
        a, b = ops.value(args[1], t), ops.value(args[2], t)
        fn = "add_carry" if name == "addc" else "sub_borrow"
        out = "true" if "cc" in suffixes else "false"
        return ops.assign(args[0], f"{ptx}{fn}<{t}>({a}, {b}, cohort_ptx_carry, true, {out})"), True
    if name in ("membar", "fence") and not args:
        return f"{ptx}fence();", False
    if name == "nanosleep" and suffixes == ["u32"]:
        need(1)
        return f"__nanosleep({ops.value(args[0], 'unsigned')});", False
    if name in ("prefetch", "prefetchu") and len(args) == 1:
        ops.address(args[0])
        return "", False
    if name == "cvt":
        return conversion(ops, args, suffixes, instruction), False
    if name in ("atom", "red"):
        return atomic(ops, name, args, suffixes, t, instruction), False
    if name in FLOAT_FUNCTIONS and t in ("float", "double") and set(suffixes) <= FLOAT_MODIFIERS | {suffixes[-1]}:
        return ops.assign(args[0], FLOAT_FUNCTIONS[name](*(ops.value(a, t) for a in args[1:]))), False
    if name in BITWISE and t and len(args) == BITWISE[name][0] + 1 and not t.startswith(("float", "double")):
        return ops.assign(args[0], BITWISE[name][1](*(ops.value(a, t) for a in args[1:]))), False
    if name in ("shl", "shr") and t and len(args) == 3 and not t.startswith(("float", "double")):
        # A shift by the register's width or more gives 0 (or the sign, shr of a signed value), as PTX clamps it.
        fn = "shift_left" if name == "shl" else "shift_right"
        return ops.assign(args[0], f"{ptx}{fn}<{t}>({ops.value(args[1], t)}, {ops.value(args[2], 'unsigned')})"), False
    if name == "cvta" and suffixes[-1] == "u64" and set(suffixes[:-1]) <= {"to", "global", "shared", "local", "const"}:
        # A state space's address is the generic one on the host (address_spaces.hpp); a 32-bit one would not hold it.
        need(2)
        return ops.assign(args[0], ops.value(args[1], t)), False
    if name in ("bar", "barrier") and set(suffixes) <= {"sync", "aligned"} and args == ["0"]:
        return "__syncthreads();", False
    raise Untranslatable(instruction)


# Floating-point arithmetic: rounding modifiers other than the default and .approx are not translated.
FLOAT_MODIFIERS = {"rn", "full", "approx", "ftz"}
FLOAT_FUNCTIONS = {
    "add": lambda a, b: f"({a} + {b})",
    "sub": lambda a, b: f"({a} - {b})",
    "mul": lambda a, b: f"({a} * {b})",
    "fma": lambda a, b, c: f"std::fma({a}, {b}, {c})",
    "div": lambda a, b: f"({a} / {b})",
    "rcp": lambda a: f"(1 / {a})",
    "sqrt": lambda a: f"std::sqrt({a})",
    "rsqrt": lambda a: f"(1 / std::sqrt({a}))",
    "ex2": lambda a: f"std::exp2({a})",
    "lg2": lambda a: f"std::log2({a})",
    "sin": lambda a: f"std::sin({a})",
    "cos": lambda a: f"std::cos({a})",
    "tanh": lambda a: f"std::tanh({a})",
    "abs": lambda a: f"std::fabs({a})",
    "neg": lambda a: f"(-{a})",
    "min": lambda a, b: f"std::fmin({a}, {b})",  # the operand that is not NaN, as PTX's min
    "max": lambda a, b: f"std::fmax({a}, {b})",
}
# Integer and bit operations: (operand count, C++).
BITWISE = {
    "and": (2, lambda a, b: f"({a} & {b})"),
    "or": (2, lambda a, b: f"({a} | {b})"),
    "xor": (2, lambda a, b: f"({a} ^ {b})"),
    "not": (1, lambda a: f"(~{a})"),
    "min": (2, lambda a, b: f"std::min({a}, {b})"),
    "max": (2, lambda a, b: f"std::max({a}, {b})"),
    "abs": (1, lambda a: f"::cohort::compat::ptx::wrapping_abs({a})"),
    "neg": (1, lambda a: f"::cohort::compat::ptx::wrapping_neg({a})"),
    "div": (2, lambda a, b: f"({a} / {b})"),
    "rem": (2, lambda a, b: f"({a} % {b})"),
}
# cvt's rounding modifiers: to an integral value (…i) or of a float result.
ROUNDINGS = {"rni": "nearest", "rzi": "zero", "rmi": "down", "rpi": "up",
             "rn": "nearest", "rz": "zero", "rm": "down", "rp": "up"}


HALF_FORMATS = {"f16": "binary16", "bf16": "bfloat16"}


def unpaired(suffix):
    """A type suffix without its pair mark: f16x2 -> f16."""
    return suffix[:-2] if suffix.endswith("x2") else suffix


def conversion(ops, args, suffixes, instruction):
    """cvt between the integer and float types, and between f32/f64 and the 16-bit floats (not .sat,
    .relu or .satfinite)."""
    halves = [s for s in suffixes if unpaired(s) in HALF_FORMATS]
    if halves:
        return half_conversion(ops, args, suffixes, halves[0], instruction)
    types = [s for s in suffixes if s in TYPES]
    modifiers = [s for s in suffixes if s not in TYPES]
    if len(args) != 2 or len(types) != 2 or not set(modifiers) <= set(ROUNDINGS) | {"ftz"}:
        raise Untranslatable(instruction)
    to, source = TYPES[types[0]], TYPES[types[1]]
    rounding = next((m for m in modifiers if m in ROUNDINGS), None)
    if source in ("float", "double") and to not in ("float", "double") and not (rounding or "").endswith("i"):
        raise Untranslatable(instruction)  # PTX requires an integer rounding here
    fn = "convert_integral" if rounding and rounding.endswith("i") else "convert"
    mode = ROUNDINGS[rounding] if rounding else "nearest"
    value = ops.value(args[1], source)
    return ops.assign(args[0], f"::cohort::compat::ptx::{fn}<{to}, {source}>({value}, "
                               f"::cohort::compat::ptx::rounding::{mode})")


def half_conversion(ops, args, suffixes, half, instruction):
    """cvt.rn.f16.f32 d, a (and .bf16, .rz/.rm/.rp, from .f64), cvt.rn.f16x2.f32 d, a, b, cvt.f32.f16 d, h."""
    fmt = "::cohort::compat::fp16::" + HALF_FORMATS[unpaired(half)]
    others = [s for s in suffixes if s != half]
    wide = [s for s in others if s in ("f32", "f64")]
    modifiers = [s for s in others if s not in wide]
    if len(wide) != 1 or not set(modifiers) <= {"rn", "rz", "rm", "rp", "ftz"}:
        raise Untranslatable(instruction)
    t = TYPES[wide[0]]
    ptx = "::cohort::compat::ptx::"
    if suffixes.index(half) > suffixes.index(wide[0]) and not half.endswith("x2") and len(args) == 2:  # from a half
        return ops.assign(args[0], f"{ptx}from_half<{t}>({fmt}, {ops.value(args[1], 'std::uint16_t')})")
    rounding = next((m for m in modifiers if m in ROUNDINGS), None)
    if rounding is None:
        raise Untranslatable(instruction)  # PTX requires one to a 16-bit float
    mode = f"{ptx}rounding::{ROUNDINGS[rounding]}"
    if half.endswith("x2") and len(args) == 3:
        return ops.assign(args[0], f"{ptx}to_half_pair<{t}>({fmt}, {ops.value(args[1], t)}, {ops.value(args[2], t)}, "
                                   f"{mode})")
    if len(args) != 2 or half.endswith("x2"):
        raise Untranslatable(instruction)
    return ops.assign(args[0], f"{ptx}to_half<{t}>({fmt}, {ops.value(args[1], t)}, {mode})")


ATOMIC_OPS = {"add": "add", "min": "min", "max": "max", "and": "bit_and", "or": "bit_or", "xor": "bit_xor",
              "exch": "exch", "inc": "inc", "dec": "dec", "cas": None}
ATOMIC_ORDERS = {"relaxed": "relaxed", "acquire": "acquire", "release": "release", "acq_rel": "acq_rel"}
ATOMIC_SCOPES = {"cta", "cluster", "gpu", "sys"}


def atomic(ops, name, args, suffixes, t, instruction):
    """atom (the old value to a register) and red (none), on one element."""
    operations = [s for s in suffixes if s in ATOMIC_OPS]
    known = set(ATOMIC_OPS) | set(ATOMIC_ORDERS) | ATOMIC_SCOPES | set(STATE_SPACES) | set(TYPES) | {"noftz"}
    if t is None or len(operations) != 1 or not set(suffixes) <= known:
        raise Untranslatable(instruction)
    operation = operations[0]
    order = "std::memory_order_" + next((ATOMIC_ORDERS[s] for s in suffixes if s in ATOMIC_ORDERS), "relaxed")
    ptx = "::cohort::compat::ptx::"
    if operation == "cas":
        if name != "atom" or len(args) != 4:
            raise Untranslatable(instruction)
        return ops.assign(args[0], f"{ptx}atomic_cas<{t}>({ops.address(args[1])}, {ops.value(args[2], t)}, "
                                   f"{ops.value(args[3], t)}, {order})")
    if len(args) != (3 if name == "atom" else 2):
        raise Untranslatable(instruction)
    call = (f"{ptx}atomic_update<{t}>({ops.address(args[-2])}, {ops.value(args[-1], t)}, "
            f"{ptx}atomic_op::{ATOMIC_OPS[operation]}, {order})")
    return ops.assign(args[0], call) if name == "atom" else call + ";"


def vector_access(ops, register_operand, address_operand, suffixes, t, load, instruction):
    """A ld or st of one element or a .v2/.v4 vector, any cache or space qualifier."""
    for s in suffixes:
        if s not in TYPES and s not in STATE_SPACES and s not in LOAD_QUALIFIERS and s not in ("v2", "v4") \
                and not s.startswith(("L1::", "L2::")):
            raise Untranslatable(instruction)
    address = ops.address(address_operand)
    registers = split_operands(register_operand[1:-1]) if register_operand.startswith("{") else [register_operand]
    if len(registers) != (4 if "v4" in suffixes else 2 if "v2" in suffixes else 1):
        raise Untranslatable(instruction)
    size = f"sizeof({t})"
    # A memory order makes the access atomic, as on the GPU (ld.acquire, st.release, .relaxed, .volatile).
    order = ("std::memory_order_acquire" if "acquire" in suffixes else "std::memory_order_release"
             if "release" in suffixes else "std::memory_order_relaxed" if {"relaxed", "volatile"} & set(suffixes)
             else None)
    statements = []
    for i, r in enumerate(registers):
        at = f"{address} + {i} * {size}"
        if load and order:
            statements.append(ops.assign(r, f"::cohort::compat::ptx::load_ordered<{t}>({at}, {order})"))
        elif load:
            statements.append(ops.assign(r, f"::cohort::compat::ptx::load<{t}>({at})"))
        elif order:
            statements.append(f"::cohort::compat::ptx::store_ordered<{t}>({at}, {ops.value(r, t)}, {order});")
        else:
            statements.append(f"::cohort::compat::ptx::store<{t}>({at}, {ops.value(r, t)});")
    return " ".join(statements)
