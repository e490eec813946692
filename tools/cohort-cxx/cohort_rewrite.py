"""Rewrites a CUDA source for cohort's host backend, token by token.

The tokenizer knows C++'s lexical grammar (comments, string, raw-string and
character literals, digit separators, line continuations, preprocessor lines),
so a `<<<` in a comment or a string is never touched. The rewriter then:

- turns `kernel<<<grid, block[, shared[, stream]]>>>(args)` into
  `::cohort::compat::chevron(kernel, grid, block[, ...])(args)`; the kernel
  expression (`k`, `ns::k<T, 4>`, `table[i]`, `(ptr)`) is found by walking back
  over a postfix expression, and `>>>` is found by bracket depth, so template
  arguments and nested parentheses in the configuration are safe; a
  __global__ function template named without template arguments is launched
  through a generic thunk, so its arguments are deduced as nvcc deduces them;
- turns `extern __shared__ T name[];` into the block's dynamic shared memory
  (a pointer at block scope, an accessor object at namespace scope);
- drops a `static` written beside `__shared__` and moves an `alignas(...)`
  after it to the front of the declaration (`__shared__` is `static thread_local`);
- renames the member accesses `.warpSize`, `.gridDim`, `.blockDim` (fields of
  cudaDeviceProp and cudaLaunchConfig_t, whose names the kernel language's
  macros take) to `.warp_size`, `.grid_dim`, `.block_dim`;
- registers every `__global__` function that is not a template, so that
  cudaLaunchKernel can launch it by address with void** arguments;
- rewrites, the same way, the headers a file includes with quotes from its own
  directory when they use one of these constructs (Project), and includes the
  rewritten copies instead.

Newlines are never added inside the source, so line numbers stay right; a
prelude (`__CUDA_ARCH__`, `#include <cuda_runtime.h>`, as nvcc includes it)
is followed by `#line 1 "file"`.
"""

import re
import sys

CUDA_ARCH = 900

IDENT = re.compile(r"[A-Za-z_$][A-Za-z_0-9$]*")
NUMBER = re.compile(r"\.?[0-9](?:[eEpP][+-]|'[0-9A-Za-z_]|[0-9A-Za-z_.])*")
STRING_PREFIX = re.compile(r"(?:u8|u|U|L)?R?\"|(?:u8|u|U|L)?'")
PUNCTUATORS = sorted(
    [
        "<<<", "<=>", "<<=", "...", "->*", "::", "->", "++", "--", "<<", "<=", "==", "!=", "&&", "||",
        "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", ".*", "##",
    ],
    key=len,
    reverse=True,
)
KEYWORDS = {
    "return", "else", "do", "case", "co_return", "co_yield", "throw", "new", "delete", "sizeo", "i",
    "while", "for", "switch", "goto", "typede", "using", "default",
}
MEMBER_RENAMES = {"warpSize": "warp_size", "gridDim": "grid_dim", "blockDim": "block_dim"}
# What may stand beside __shared__ among a declaration's specifiers (shared_specifiers).
SHARED_COMPANIONS = {"static", "volatile", "const", "__device__"}
SPECIFIER_CALLS = {"alignas", "__align__", "__attribute__"}


class Token:
    __slots__ = ("kind", "text", "line")

    def __init__(self, kind, text, line):
        self.kind = kind  # ident, number, string, char, punct, comment, space, newline, hash
        self.text = text
        self.line = line

    def __repr__(self):
        return f"Token({self.kind!r}, {self.text!r})"


class RewriteError(Exception):
    """Source the rewriter cannot parse, at `line` of the file being rewritten."""

    def __init__(self, line, message):
        super().__init__(f"{line}: error: {message}")
        self.line = line
        self.message = message
        self.path = None  # the file, once known


def tokenize(source):
    tokens = []
    i, line, n = 0, 1, len(source)
    at_line_start = True
    while i < n:
        c = source[i]
        if c == "\\" and source.startswith("\n", i + 1):
            tokens.append(Token("space", "\\\n", line))
            i += 2
            line += 1
            continue
        if c == "\n":
            tokens.append(Token("newline", c, line))
            i += 1
            line += 1
            at_line_start = True
            continue
        if c in " \t\r\f\v":
            j = i
            while j < n and source[j] in " \t\r\f\v":
                j += 1
            tokens.append(Token("space", source[i:j], line))
            i = j
            continue
        if source.startswith("//", i):
            j = i
            while j < n and source[j] != "\n":
                j += 2 if source.startswith("\\\n", j) else 1
            text = source[i:j]
            tokens.append(Token("comment", text, line))
            line += text.count("\n")
            i = j
            continue
        if source.startswith("/*", i):
            j = source.find("*/", i + 2)
            if j < 0:
                raise RewriteError(line, "unterminated comment")
            text = source[i : j + 2]
            tokens.append(Token("comment", text, line))
            line += text.count("\n")
            i = j + 2
            continue
        if c == "#" and at_line_start:
            tokens.append(Token("hash", c, line))
            i += 1
            at_line_start = False
            continue
        at_line_start = False
        m = STRING_PREFIX.match(source, i)
        if m and (c in "\"'" or IDENT.match(source, i).end() >= m.end() - 1):
            text = lex_literal(source, i, m.group(0), line)
            tokens.append(Token("char" if text.endswith("'") else "string", text, line))
            line += text.count("\n")
            i += len(text)
            continue
        m = IDENT.match(source, i)
        if m:
            tokens.append(Token("ident", m.group(0), line))
            i = m.end()
            continue
        m = NUMBER.match(source, i)
        if m:
            tokens.append(Token("number", m.group(0), line))
            i = m.end()
            continue
        for p in PUNCTUATORS:
            if source.startswith(p, i):
                if p == "<<<" and source.startswith("<<<=", i):
                    continue
                tokens.append(Token("punct", p, line))
                i += len(p)
                break
        else:
            tokens.append(Token("punct", c, line))
            i += 1
    return tokens


def lex_literal(source, i, prefix, line):
    """The literal starting at i, whose opening (with prefix) is `prefix`."""
    quote = prefix[-1]
    start = i + len(prefix)
    if quote == '"' and "R" in prefix:
        paren = source.find("(", start)
        if paren < 0:
            raise RewriteError(line, "malformed raw string literal")
        delimiter = source[start:paren]
        end = source.find(")" + delimiter + '"', paren)
        if end < 0:
            raise RewriteError(line, "unterminated raw string literal")
        return source[i : end + len(delimiter) + 2]
    j = start
    while j < len(source):
        if source[j] == "\\":
            j += 2
            continue
        if source[j] == quote:
            return source[i : j + 1]
        if source[j] == "\n":
            break
        j += 1
    what = "string" if quote == '"' else "character"
    raise RewriteError(line, f"unterminated {what} literal")


def significant(tokens, i, step):
    """Index of the next token from i (excluded) in direction step that is not space or comment."""
    i += step
    while 0 <= i < len(tokens) and tokens[i].kind in ("space", "comment", "newline"):
        i += step
    return i if 0 <= i < len(tokens) else None


def match_forward(tokens, i):
    """Index of the bracket closing the one at i."""
    pairs = {"(": ")", "[": "]", "{": "}"}
    opening, closing = tokens[i].text, pairs[tokens[i].text]
    depth = 0
    for j in range(i, len(tokens)):
        if tokens[j].kind != "punct":
            continue
        if tokens[j].text == opening:
            depth += 1
        elif tokens[j].text == closing:
            depth -= 1
            if depth == 0:
                return j
    raise RewriteError(tokens[i].line, f"unbalanced '{opening}'")


def match_backward(tokens, i):
    """Index of the bracket opening the one at i (')', ']' or '>')."""
    pairs = {")": "(", "]": "[", ">": "<"}
    closing, opening = tokens[i].text, pairs[tokens[i].text]
    depth = 0
    for j in range(i, -1, -1):
        t = tokens[j]
        if t.kind != "punct":
            continue
        if t.text == closing:
            depth += 1
        elif t.text == opening:
            depth -= 1
            if depth == 0:
                return j
    raise RewriteError(tokens[i].line, f"unbalanced '{closing}'")


def kernel_expression_start(tokens, last):
    """Index of the first token of the postfix expression ending at `last`."""
    i = last
    while True:
        t = tokens[i]
        if t.kind == "ident" and t.text not in KEYWORDS:
            start = i
        elif t.kind == "punct" and t.text == ">":
            opening = angle_open(tokens, i)
            name = significant(tokens, opening, -1)
            if name is None or tokens[name].kind != "ident":
                raise RewriteError(t.line, "cannot find the kernel name before '<<<'")
            start = name
        elif t.kind == "punct" and t.text in (")", "]"):
            start = match_backward(tokens, i)
            before = significant(tokens, start, -1)
            if before is not None and is_expression_end(tokens[before]) and (
                tokens[start].text == "[" or tokens[before].kind != "ident" or tokens[before].text not in KEYWORDS
            ):
                i = before
                continue
        else:
            raise RewriteError(t.line, "cannot find the kernel expression before '<<<'")
        before = significant(tokens, start, -1)
        if before is None:
            return start
        b = tokens[before]
        if b.kind == "punct" and b.text in ("::", ".", "->"):
            prior = significant(tokens, before, -1)
            if b.text == "::" and (prior is None or not is_expression_end(tokens[prior])):
                return before  # ::kernel
            if prior is not None and tokens[prior].kind == "ident" and tokens[prior].text == "template":
                prior = significant(tokens, prior, -1)
            i = prior
            continue
        return start


def is_expression_end(t):
    return (t.kind == "ident" and t.text not in KEYWORDS) or (t.kind == "punct" and t.text in (")", "]", ">"))


def angle_open(tokens, i):
    """The '<' that opens the template argument list closed by the '>' at i."""
    depth = 0
    j = i
    while j >= 0:
        t = tokens[j]
        if t.kind == "punct":
            if t.text in (")", "]"):
                j = match_backward(tokens, j) - 1
                continue
            if t.text == ">":
                depth += 1
            elif t.text == "<":
                depth -= 1
                if depth == 0:
                    return j
            elif t.text in (";", "{", "}"):
                break
        j -= 1
    raise RewriteError(tokens[i].line, "unbalanced '>' before '<<<'")


def launch_end(tokens, i):
    """(first, last) indices of the '>' tokens closing the configuration opened by '<<<' at i."""
    depth = 0
    j = i + 1
    while j < len(tokens):
        t = tokens[j]
        if t.kind == "punct":
            if t.text in ("(", "[", "{"):
                j = match_forward(tokens, j) + 1
                continue
            if t.text == ">":
                run = j
                while run < len(tokens) and tokens[run].kind == "punct" and tokens[run].text == ">":
                    run += 1
                after = significant(tokens, run - 1, 1)
                if run - j >= 3 and after is not None and tokens[after].text == "(":
                    return run - 3, run - 1
                j = run
                continue
            if t.text in (";", "}"):
                break
        j += 1
    raise RewriteError(tokens[i].line, "'<<<' without a matching '>>>('")


def scope_kinds(tokens):
    """For each '{' index: True when it opens a namespace or linkage block."""
    kinds = {}
    for i, t in enumerate(tokens):
        if t.kind != "punct" or t.text != "{":
            continue
        j = significant(tokens, i, -1)
        while j is not None and (tokens[j].kind == "ident" or tokens[j].text == "::") and tokens[j].text != "namespace":
            j = significant(tokens, j, -1)
        is_namespace = j is not None and tokens[j].text == "namespace"
        k = significant(tokens, i, -1)
        is_linkage = (
            k is not None
            and tokens[k].kind == "string"
            and (p := significant(tokens, k, -1)) is not None
            and tokens[p].text == "extern"
        )
        kinds[i] = is_namespace or is_linkage
    return kinds


def newlines_in(tokens, first, last):
    return sum(t.text.count("\n") for t in tokens[first : last + 1] if t.kind in ("newline", "space", "comment", "string"))


def text_of(tokens, first, last):
    return " ".join(t.text for t in tokens[first : last + 1] if t.kind not in ("space", "comment", "newline"))


def template_kernels(tokens):
    """Names of the __global__ function templates declared in `tokens`."""
    names = set()
    for i, t in enumerate(tokens):
        if t.kind == "ident" and t.text == "__global__" and global_registration(tokens, i) is None:
            k = significant(tokens, i, -1)
            while k is not None and tokens[k].text not in (";", "{", "}") and tokens[k].text != "template":
                k = significant(tokens, k, -1)
            if k is None or tokens[k].text != "template":
                continue
            j = i
            name = None
            while j is not None and tokens[j].text not in ("(", ";", "{"):
                if tokens[j].text in ("__launch_bounds__", "__attribute__"):
                    j = match_forward(tokens, significant(tokens, j, 1))
                elif tokens[j].kind == "ident":
                    name = tokens[j].text
                j = significant(tokens, j, 1)
            if name:
                names.add(name)
    return names


def rewrite_tokens(tokens, include=None, templates=None):
    """The rewritten text; `include` maps a quoted include's name to the name to include instead (or
    None); `templates` holds the names of __global__ function templates seen so far (this file's are added)."""
    out = [t.text for t in tokens]
    templates = templates if templates is not None else set()
    templates |= template_kernels(tokens)
    kinds = scope_kinds(tokens)
    scopes = []  # True: namespace-like
    registrations = {}  # index of a closing '}' -> text to append
    in_directive = False
    i = 0
    while i < len(tokens):
        t = tokens[i]
        if t.kind == "hash":
            in_directive = True
        elif t.kind == "newline":
            in_directive = False
        if t.kind == "punct" and t.text == "{":
            scopes.append(kinds[i])
        elif t.kind == "punct" and t.text == "}":
            if scopes:
                scopes.pop()
            if i in registrations:
                out[i] += registrations.pop(i)
        elif t.kind == "punct" and t.text == "<<<":
            last = significant(tokens, i, -1)
            if last is None:
                raise RewriteError(t.line, "'<<<' without a kernel")
            start = kernel_expression_start(tokens, last)
            first, close = launch_end(tokens, i)
            if tokens[last].kind == "ident" and tokens[last].text in templates:
                # A function template named without arguments: they are deduced from the
                # launch's arguments, as nvcc does, by calling it from a generic thunk.
                out[start] = "::cohort::compat::chevron_deduced([](auto... cohort_a) { " + out[start]
                out[i] = "(cohort_a...); },"
            else:
                out[start] = "::cohort::compat::chevron(" + out[start]
                out[i] = ","
            for k in range(first, close + 1):
                out[k] = ""
            out[close] = ")"
            i = close
        elif t.kind == "punct" and t.text in (".", "->"):
            m = significant(tokens, i, 1)
            if m is not None and tokens[m].kind == "ident" and tokens[m].text in MEMBER_RENAMES:
                out[m] = MEMBER_RENAMES[tokens[m].text]
        elif t.kind == "hash" and include is not None:
            d = significant(tokens, i, 1)
            name = significant(tokens, d, 1) if d is not None else None
            if (
                d is not None
                and tokens[d].text == "include"
                and name is not None
                and tokens[name].kind == "string"
                and tokens[name].line == t.line
            ):
                replacement = include(tokens[name].text[1:-1])
                if replacement is not None:
                    out[name] = '"' + replacement.replace("\\", "\\\\").replace('"', '\\"') + '"'
        elif t.kind == "ident" and t.text == "extern":
            nxt = significant(tokens, i, 1)
            if nxt is not None and tokens[nxt].text == "__shared__":
                # The declaration ends at its ';' or, in a macro definition, with the directive.
                end = i
                while end < len(tokens) and tokens[end].text != ";" and not (in_directive and tokens[end].kind == "newline"):
                    end += 1
                if end == len(tokens):
                    raise RewriteError(t.line, "'extern __shared__' without ';'")
                replacement = dynamic_shared(tokens, nxt + 1, end, all(scopes))
                if tokens[end].kind == "newline":
                    replacement = replacement[:-1]  # the macro's user writes the ';'
                    end -= 1
                out[i] = replacement + "\n" * newlines_in(tokens, i, end)
                for k in range(i + 1, end + 1):
                    out[k] = ""
                i = end
        elif t.kind == "ident" and t.text == "__shared__":
            i = rewrite_shared_specifiers(tokens, out, i)
        elif t.kind == "ident" and t.text == "__global__" and all(scopes):
            registration = global_registration(tokens, i)
            if registration:
                close, text = registration
                registrations[close] = registrations.get(close, "") + text
        i += 1
    return "".join(out)


def rewrite_shared_specifiers(tokens, out, i):
    """Rewrites the declaration specifiers around the `__shared__` at i, which is `static thread_local` on
    the host: the user's own `static` (`static __shared__ int s[32];`, valid CUDA) would be a second storage
    class, so it is dropped, and an `alignas(N)` after `__shared__` moves to the front of the declaration,
    the only place it may stand before `static thread_local`. Returns the index of the last specifier."""
    spans = shared_specifiers(tokens, i)
    moved = []
    for start, end in spans:
        if tokens[start].text == "static":
            blank(tokens, out, start, end, start + 1)
        elif tokens[start].text == "alignas" and start > i:
            moved.append("".join(out[start : end + 1]) + " ")
            blank(tokens, out, start, end, start - 1)
    out[spans[0][0]] = "".join(moved) + out[spans[0][0]]
    return spans[-1][1]


def shared_specifiers(tokens, i):
    """(first, last) index spans of the declaration specifiers next to the `__shared__` at i, which is one of
    them, in source order: `static`, `volatile`, `const`, `__device__`, `alignas(…)`, `__align__(…)`,
    `__attribute__((…))`."""
    spans = [(i, i)]
    k = significant(tokens, i, -1)
    while k is not None:
        if tokens[k].text in SHARED_COMPANIONS:
            spans.insert(0, (k, k))
        elif tokens[k].text == ")" and tokens[k].kind == "punct":
            call = significant(tokens, match_backward(tokens, k), -1)
            if call is None or tokens[call].text not in SPECIFIER_CALLS:
                break
            spans.insert(0, (call, k))
        else:
            break
        k = significant(tokens, spans[0][0], -1)
    k = significant(tokens, i, 1)
    while k is not None:
        if tokens[k].text in SHARED_COMPANIONS:
            spans.append((k, k))
        elif tokens[k].text in SPECIFIER_CALLS:
            paren = significant(tokens, k, 1)
            if paren is None or tokens[paren].text != "(":
                break
            spans.append((k, match_forward(tokens, paren)))
        else:
            break
        k = significant(tokens, spans[-1][1], 1)
    return spans


def blank(tokens, out, start, end, space):
    """Removes tokens start..end from the output, with the blank at index `space` if it is one on the same
    line (a line continuation stays, so that line numbers do)."""
    for k in range(start, end + 1):
        out[k] = ""
    if 0 <= space < len(tokens) and tokens[space].kind == "space" and "\n" not in tokens[space].text:
        out[space] = ""


def dynamic_shared(tokens, first, end, at_namespace_scope):
    """The replacement of `extern __shared__ <first..end)` (end is the ';', or the end of a macro definition)."""
    parts = []
    k = first
    while k < end:
        t = tokens[k]
        if t.kind in ("space", "comment", "newline"):
            k += 1
            continue
        if t.text in ("__align__", "alignas", "__attribute__"):
            paren = significant(tokens, k, 1)
            k = match_forward(tokens, paren) + 1
            continue
        if t.text == "[" and significant(tokens, k, 1) is not None and tokens[significant(tokens, k, 1)].text == "[":
            k = match_forward(tokens, k) + 1
            continue
        parts.append(k)
        k += 1
    # parts: type tokens..., name, '[', ']'
    if len(parts) < 4 or tokens[parts[-2]].text != "[" or tokens[parts[-1]].text != "]":
        raise RewriteError(tokens[first].line, "'extern __shared__' must declare an array of unknown bound, e.g. "
            "'extern __shared__ float s[];'"
        )
    name = tokens[parts[-3]].text
    type_text = " ".join(tokens[p].text for p in parts[:-3])
    if at_namespace_scope:
        return f"[[maybe_unused]] static constexpr ::cohort::compat::dynamic_shared_array<{type_text}> {name}{{}};"
    return f"{type_text}* const {name} = ::cohort::dynamic_shared<{type_text}>();"


def global_registration(tokens, i):
    """(index of the body's closing '}', text) for a __global__ function definition that is not a template."""
    k = significant(tokens, i, -1)
    while k is not None and tokens[k].text not in (";", "{", "}"):
        if tokens[k].text == "template" or tokens[k].text == ">":
            return None
        if tokens[k].kind == "hash":
            break
        k = significant(tokens, k, -1)
    j = i
    name = None
    cluster_dims = None  # the text of __cluster_dims__'s arguments
    while j is not None and j < len(tokens):
        t = tokens[j]
        if t.text == "__cluster_dims__":
            opening = significant(tokens, j, 1)
            j = match_forward(tokens, opening)
            cluster_dims = " ".join(x.text for x in tokens[opening + 1 : j] if x.kind not in ("space", "comment", "newline"))
        elif t.text == "__launch_bounds__" or t.text == "__attribute__":
            j = match_forward(tokens, significant(tokens, j, 1))
        elif t.text == "(":
            break
        elif t.text in (";", "{", "<"):
            return None
        elif t.kind == "ident":
            name = t.text
        j = significant(tokens, j, 1)
    if j is None or name is None:
        return None
    params_close = match_forward(tokens, j)
    body = significant(tokens, params_close, 1)
    while body is not None and tokens[body].kind == "ident" and tokens[body].text in ("noexcept",):
        body = significant(tokens, body, 1)
    if body is None or tokens[body].text != "{":
        return None
    close = match_forward(tokens, body)
    params = strip_defaults(tokens, j + 1, params_close - 1)
    signature = f"void (*)({params})"
    cluster = f", dim3({cluster_dims})" if cluster_dims else ""
    return close, (
        " [[maybe_unused]] static const bool COHORT_COMPAT_UNIQUE(cohort_kernel_registered_) = "
        f"::cohort::compat::register_global(static_cast<{signature}>(&{name}){cluster});"
    )


def strip_defaults(tokens, first, last):
    """The parameter list's text without default arguments, on one line."""
    pieces, depth, skipping = [], 0, False
    for t in tokens[first : last + 1]:
        if t.kind in ("space", "comment", "newline"):
            continue
        if t.text in ("(", "[", "{", "<"):
            depth += 1
        elif t.text in (")", "]", "}", ">"):
            depth -= 1
        if depth == 0 and t.text == ",":
            skipping = False
        elif depth == 0 and t.text == "=":
            skipping = True
        if not skipping:
            pieces.append(t.text)
    return " ".join(pieces)


def line_directive(path):
    escaped = path.replace("\\", "\\\\").replace('"', '\\"')
    return f'#line 1 "{escaped}"\n'


def rewrite(source, path=None, include=None, templates=None, device=True):
    """The rewritten source; with a path, preceded by the prelude nvcc's compilation of a .cu
    file implies (`device`) or by a #line directive alone (a host .cpp file, compiled as nvcc
    compiles it: without __CUDA_ARCH__ and without <cuda_runtime.h> unless it includes it)."""
    body = rewrite_tokens(tokenize(source), include, templates)
    if path is None:
        return body
    if not device:
        return line_directive(path) + body
    return (
        f"#ifndef __CUDA_ARCH__\n#define __CUDA_ARCH__ {CUDA_ARCH}\n#endif\n"
        "#include <cuda_runtime.h>\n" + line_directive(path) + body
    )


# What makes a header (or a host .cpp file) need the rewriter: the constructs it changes.
HEADER_TRIGGERS = ("<<<", "__shared__", "__global__", "warpSize", "gridDim", "blockDim")


class Project:
    """Rewrites a .cu file and, recursively, the headers it includes with quotes
    that lie beside it (resolved from the including file's directory) and use a
    construct the rewriter changes; rewritten headers go under `header_dir`.
    Other quoted includes found there are named by their absolute path, so
    they are found from a rewritten copy too."""

    def __init__(self, header_dir):
        self.header_dir = header_dir
        self.rewritten = {}  # original header path -> rewritten path
        self.read = []  # every file read, for dependency lists
        self.templates = set()  # __global__ function templates of the files rewritten so far

    def source(self, path, device=True):
        import os

        path = os.path.abspath(path)
        return self._located(path, lambda: rewrite(self._read(path), path, self._resolver(path), self.templates, device))

    @staticmethod
    def _located(path, work):
        """work(), with the path of the file being rewritten on its RewriteError."""
        try:
            return work()
        except RewriteError as e:
            if e.path is None:
                e.path = path
            raise

    def _read(self, path):
        with open(path, encoding="utf-8") as f:
            self.read.append(path)
            return f.read()

    def _resolver(self, including):
        import os

        def resolve(name):
            candidate = os.path.normpath(os.path.join(os.path.dirname(including), name))
            if not os.path.isfile(candidate):
                return None
            if candidate in self.rewritten:
                return self.rewritten[candidate]
            text = self._read(candidate)
            self.rewritten[candidate] = candidate
            if not any(trigger in text for trigger in HEADER_TRIGGERS):
                return candidate  # found from the including file's own directory, wherever that now is
            import hashlib

            tag = hashlib.md5(candidate.encode()).hexdigest()[:8]
            target = os.path.join(self.header_dir, tag, os.path.basename(candidate))
            self.rewritten[candidate] = target
            os.makedirs(os.path.dirname(target), exist_ok=True)
            body = line_directive(candidate) + self._located(
                candidate, lambda: rewrite_tokens(tokenize(text), self._resolver(candidate), self.templates)
            )
            with open(target, "w", encoding="utf-8") as f:
                f.write(body)
            return target

        return resolve


def main(argv):
    import argparse

    parser = argparse.ArgumentParser(description="Rewrite a .cu file for cohort's host backend.")
    parser.add_argument("source")
    parser.add_argument("-o", "--output", required=True)
    parser.add_argument("--headers", help="where rewritten headers go (default: beside the output)")
    parser.add_argument("--depfile", help="write the files read, as a make depfile")
    parser.add_argument("--host", action="store_true", help="a host source (.cpp): no __CUDA_ARCH__, no <cuda_runtime.h>")
    args = parser.parse_args(argv)
    import os

    project = Project(args.headers or os.path.join(os.path.dirname(os.path.abspath(args.output)), "headers"))
    try:
        text = project.source(args.source, device=not args.host)
    except RewriteError as e:
        print(f"{e.path or args.source}:{e}", file=sys.stderr)
        return 1
    except OSError as e:
        print(f"{args.source}: {e.strerror}", file=sys.stderr)
        return 1
    with open(args.output, "w", encoding="utf-8") as f:
        f.write(text)
    if args.depfile:
        with open(args.depfile, "w", encoding="utf-8") as f:
            f.write(args.output.replace(" ", "\\ ") + ": " + " ".join(p.replace(" ", "\\ ") for p in project.read) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
