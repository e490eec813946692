"""nvcc's command-line options (CUDA 13's `nvcc --help`) and what cohort-cxx does with each.

A build written for nvcc passes its options unchanged; each one is, here:
  - "ignore": it steers device code generation, ptxas, nvlink, the fatbinary or
    the CUDA front end's diagnostics, none of which exist on the host backend;
  - a function of its value giving the host compiler's flags for the same request;
  - "driver": cohort-cxx itself does it (compile only, output names, dependency
    files, -lib, -run, ...; cohort-cxx's main());
  - "refuse": it asks for device code (PTX, cubin, fatbinary), which a host
    build has none of: a usage error saying so.
An option is written `--long`, `-short`, with its value as `=value` or as the
next argument; a value listed as `a,b` is split where nvcc splits it. Arguments
that are no nvcc option (-O3, -Ifoo, -Wall, ...) go to the host compiler as they are.
"""

from collections import namedtuple

Option = namedtuple("Option", "long short takes_value action")


def _each(flag):
    """A list option (`-I a,b`) as one host flag per item."""
    return lambda value: [flag + item for item in value.split(",") if item]


def _optimize(value):
    return [f"-O{value}"]


def _machine(value):
    if value != "64":
        raise ValueError(f"--machine {value}: only 64-bit code is built (nvcc accepts 64 alone)")
    return ["-m64"]


def _default_stream(value):
    if value not in ("legacy", "null", "per-thread"):
        raise ValueError(f"--default-stream {value}: nvcc takes legacy, null or per-thread")
    # The macro nvcc defines; the host backend keeps the legacy default stream's ordering
    # (docs/cuda-compat.md, "The driver").
    return ["-DCUDA_API_PER_THREAD_DEFAULT_STREAM=1"] if value == "per-thread" else []


def _host(*flags):
    return lambda value: list(flags)


_IGNORE_WITH_VALUE = [
    ("--gpu-architecture", "-arch"), ("--gpu-code", "-code"), ("--generate-code", "-gencode"),
    ("--relocatable-device-code", "-rdc"), ("--entries", "-e"), ("--maxrregcount", "-maxrregcount"),
    ("--ftz", "-ftz"), ("--prec-div", "-prec-div"), ("--prec-sqrt", "-prec-sqrt"), ("--fmad", "-fmad"),
    ("--ptxas-options", "-Xptxas"), ("--nvlink-options", "-Xnvlink"), ("--archive-options", "-Xarchive"),
    ("--compiler-bindir", "-ccbin"), ("--cudart", "-cudart"), ("--cudadevrt", "-cudadevrt"),
    ("--libdevice-directory", "-ldir"), ("--target-directory", "-target-dir"),
    ("--optimization-info", "-opt-info"), ("--Ofast-compile", "-Ofc"), ("--dopt", "-dopt"),
    ("--static-global-template-stub", "-static-global-template-stub"),
    ("--device-entity-has-hidden-visibility", "-device-entity-has-hidden-visibility"),
    ("--threads", "-t"), ("--split-compile", "-split-compile"),
    ("--split-compile-extended", "-split-compile-extended"), ("--fdevice-time-trace", "-fdevice-time-trace"),
    ("--keep-dir", "-keep-dir"), ("--time", "-time"), ("--input-drive-prefix", "-idp"),
    ("--dependency-drive-prefix", "-ddp"), ("--drive-prefix", "-dp"), ("--diag-error", "-diag-error"),
    ("--diag-suppress", "-diag-suppress"), ("--diag-warn", "-diag-warn"), ("--host-linker-script", "-hls"),
    ("--brief-diagnostics", "-brief-diag"), ("--jump-table-density", "-jtd"),
    ("--device-stack-protector", "-device-stack-protector"), ("--compress-mode", "-compress-mode"),
    ("--sanitize", "-sanitize"), ("--Werror", "-Werror"), ("--archiver-binary", "-arbin"),
    ("-Xfatbin", None), ("-Xcudafe", None),
]
_IGNORE = [
    ("--generate-line-info", "-lineinfo"), ("--use_fast_math", "-use_fast_math"),
    ("--extra-device-vectorization", "-extra-device-vectorization"),
    ("--expt-relaxed-constexpr", "-expt-relaxed-constexpr"), ("--extended-lambda", "-extended-lambda"),
    ("--expt-extended-lambda", "-expt-extended-lambda"),
    ("--no-host-device-initializer-list", "-nohdinitlist"), ("--no-host-device-move-forward", "-nohdmoveforward"),
    ("--allow-unsupported-compiler", "-allow-unsupported-compiler"), ("--use-local-env", "-use-local-env"),
    ("--force-cl-env-setup", "-force-cl-env-setup"), ("--objdir-as-tempdir", "-objtemp"),
    ("--dlink-time-opt", "-dlto"), ("--lto", "-lto"), ("--gen-opt-lto", "-gen-opt-lto"),
    # Exceptions stay on: cohort's headers report kernel faults by throwing.
    ("--no-exceptions", "-noeh"),
    ("--forward-unknown-to-host-compiler", "-forward-unknown-to-host-compiler"),
    ("--forward-unknown-to-host-linker", "-forward-unknown-to-host-linker"),
    ("--forward-unknown-opts", "-forward-unknown-opts"), ("--dont-use-profile", "-noprof"),
    ("--fdevice-syntax-only", "-fdevice-syntax-only"), ("--keep", "-keep"), ("--save-temps", "-save-temps"),
    ("--no-align-double", None), ("--no-device-link", "-nodlink"), ("--keep-device-functions", "-keep-device-functions"),
    ("--source-in-ptx", "-src-in-ptx"), ("--restrict", "-restrict"),
    ("--Wdefault-stream-launch", "-Wdefault-stream-launch"), ("--Wmissing-launch-bounds", "-Wmissing-launch-bounds"),
    ("--Wext-lambda-captures-this", "-Wext-lambda-captures-this"),
    ("--Wno-deprecated-gpu-targets", "-Wno-deprecated-gpu-targets"), ("--resource-usage", "-res-usage"),
    ("--extensible-whole-program", "-ewp"), ("--no-compress", "-no-compress"),
    ("--compile-as-tools-patch", "-astoolspatch"), ("--display-error-number", "-err-no"),
    ("--no-display-error-number", "-no-err-no"), ("--augment-host-linker-script", "-aug-hls"),
    ("--relocatable-ptx", "-reloc-ptx"), ("--jobserver", "-jobserver"), ("--qpp-config", "-qpp-config"),
    ("--link", "-link"),
]
_REFUSE = [("--cuda", "-cuda"), ("--cubin", "-cubin"), ("--fatbin", "-fatbin"), ("--ptx", "-ptx"),
           ("--optix-ir", "-optix-ir"), ("--ltoir", "-ltoir")]
_HOST_WITH_VALUE = [
    ("--optimize", "-O", _optimize), ("--define-macro", "-D", _each("-D")), ("--undefine-macro", "-U", _each("-U")),
    ("--include-path", "-I", _each("-I")), ("--system-include", "-isystem", lambda v: [
        f for item in v.split(",") if item for f in ("-isystem", item)]),
    ("--library-path", "-L", _each("-L")), ("--pre-include", "-include", lambda v: [
        f for item in v.split(",") if item for f in ("-include", item)]),
    ("--linker-options", "-Xlinker", lambda v: [f"-Wl,{v}"]), ("--machine", "-m", _machine),
    ("--ftemplate-backtrace-limit", "-ftemplate-backtrace-limit", lambda v: [f"-ftemplate-backtrace-limit={v}"]),
    ("--ftemplate-depth", "-ftemplate-depth", lambda v: [f"-ftemplate-depth={v}"]),
    ("--default-stream", "-default-stream", _default_stream), ("--frandom-seed", "-frandom-seed",
                                                                lambda v: [f"-frandom-seed={v}"]),
]
_HOST = [("--debug", "-g", _host("-g")), ("--profile", "-pg", _host("-pg")), ("--shared", "-shared", _host("-shared")),
         ("--m64", "-m64", _host("-m64")), ("--disable-warnings", "-w", _host("-w")),
         ("--Wreorder", "-Wreorder", _host("-Wreorder")),
         ("--Wno-deprecated-declarations", "-Wno-deprecated-declarations", _host("-Wno-deprecated-declarations")),
         ("--relocatable-link", "-r", _host("-r"))]
# What cohort-cxx's main() does itself, by the option's long name.
_DRIVER_WITH_VALUE = [
    ("--output-file", "-o"), ("--compiler-options", "-Xcompiler"), ("--x", "-x"), ("--std", "-std"),
    ("--library", "-l"), ("--output-directory", "-odir"), ("--dependency-output", "-MF"),
    ("--dependency-target-name", "-MT"), ("--run-args", "-run-args"), ("--options-file", "-optf"),
]
_DRIVER = [
    ("--compile", "-c"), ("--device-c", "-dc"), ("--device-w", "-dw"), ("--device-link", "-dlink"),
    ("--preprocess", "-E"), ("--generate-dependencies", "-M"), ("--generate-nonsystem-dependencies", "-MM"),
    ("--generate-dependencies-with-compile", "-MD"), ("--generate-nonsystem-dependencies-with-compile", "-MMD"),
    ("--generate-dependency-targets", "-MP"), ("--lib", "-lib"), ("--run", "-run"), ("--device-debug", "-G"),
    ("--verbose", "-v"), ("--dryrun", "-dryrun"), ("--version", "-V"), ("--help", "-h"),
    ("--list-gpu-code", "-code-ls"), ("--list-gpu-arch", "-arch-ls"), ("--clean-targets", "-clean"),
]


def _table():
    options = []
    options += [Option(lng, sht, True, "ignore") for lng, sht in _IGNORE_WITH_VALUE]
    options += [Option(lng, sht, False, "ignore") for lng, sht in _IGNORE]
    options += [Option(lng, sht, False, "refuse") for lng, sht in _REFUSE]
    options += [Option(lng, sht, True, act) for lng, sht, act in _HOST_WITH_VALUE]
    options += [Option(lng, sht, False, act) for lng, sht, act in _HOST]
    options += [Option(lng, sht, True, "driver") for lng, sht in _DRIVER_WITH_VALUE]
    options += [Option(lng, sht, False, "driver") for lng, sht in _DRIVER]
    by_name = {}
    for option in options:
        for name in (option.long, option.short):
            if name:
                assert name not in by_name, name
                by_name[name] = option
    return by_name


BY_NAME = _table()
# nvcc's -Werror takes the kinds of warning it makes errors; `-Werror` followed by
# anything else is the host compiler's.
WERROR_KINDS = {"cross-execution-space-call", "reorder", "default-stream-launch", "missing-launch-bounds",
                "ext-lambda-captures-this", "deprecated-declarations", "all-warnings"}


class OptionError(Exception):
    pass


def match(argv, i):
    """The nvcc option at argv[i] as (option, value, arguments used), or None where
    argv[i] is no nvcc option (a source, or a flag for the host compiler)."""
    argument = argv[i]
    name, equals, attached = argument.partition("=")
    option = BY_NAME.get(name)
    if option is None:
        return None
    if not option.takes_value:
        return None if equals else (option, None, 1)
    if equals:
        value, used = attached, 1
    elif i + 1 < len(argv):
        value, used = argv[i + 1], 2
    else:
        raise OptionError(f"{argument} needs a value after it")
    if option.long == "--Werror" and not set(value.split(",")) <= WERROR_KINDS:
        return None  # the host compiler's -Werror (or -Werror=kind)
    return option, value, used


def host_flags(option, value):
    """The host compiler's flags for an option whose action is a function."""
    try:
        return option.action(value)
    except ValueError as e:
        raise OptionError(str(e)) from e
