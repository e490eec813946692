"""Rewrites a CUDA source for cohort's host backend, token by token.

The tokenizer knows C++'s lexical grammar (comments, string, raw-string and
character literals, digit separators, line continuations, preprocessor lines),
so a `<<<` in a comment or a string is never touched; each token knows whether
it stands on a preprocessor line, and brackets pair only with brackets on the
same side (`#if N > 1` in a parameter list, `#include <x>` before a kernel).
The rewriter then:

- turns `kernel<<<grid, block[, shared[, stream]]>>>(args)` into
  `::cohort::compat::chevron(kernel, grid, block[, ...])(args)`; the kernel
  expression (`k`, `ns::k<T, 4>`, `table[i]`, `(ptr)`) is found by walking back
  over a postfix expression, and `>>>` is found by bracket depth, so template
  arguments and nested parentheses in the configuration are safe; a
  __global__ function template named without template arguments is launched
  through a generic thunk, so its arguments are deduced as nvcc deduces them;
  a macro that is a launch's configuration alone (`#define CFG(g, b) <<<g, b>>>`)
  makes each use (`k CFG(g, b)(x)`) a launch;
- turns `extern __shared__ T name[];` into the block's dynamic shared memory
  (a pointer at block scope, an accessor object at namespace scope);
- drops a `static` written beside `__shared__` and moves an `alignas(...)`
  after it to the front of the declaration (`__shared__` is `static thread_local`);
- registers every `__global__` function that is not a template, so that
  cudaLaunchKernel can launch it by address with void** arguments, and every
  `__constant__` variable defined at namespace scope, for __isConstant;
- rewrites, the same way, the headers a file includes with quotes from its own
  directory when they use one of these constructs (Project), and includes the
  rewritten copies instead.

Newlines are never added inside the source, so line numbers stay right (those
a rewrite replaces inside a macro definition stay as continuations); a
prelude (`__CUDA_ARCH__`, `#include <cuda_runtime.h>`, as nvcc includes it)
is followed by `#line 1 "file"`.
"""

import re
import sys

import cohort_ptx

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
    "return", "else", "do", "case", "co_return", "co_yield", "throw", "new", "delete", "sizeof", "if",
    "while", "for", "switch", "goto", "typedef", "using", "default",
}
# What may stand beside __shared__ among a declaration's specifiers (shared_specifiers).
SHARED_COMPANIONS = {"static", "volatile", "const", "__device__"}
SPECIFIER_CALLS = {"alignas", "__align__", "__attribute__"}


class Token:
    __slots__ = ("kind", "text", "line", "directive", "glued")

    def __init__(self, kind, text, line):
        self.kind = kind  # ident, number, string, char, punct, comment, space, newline, hash
        self.text = text
        self.line = line
        self.directive = False  # on a preprocessor line (its '#' included, its ending newline not)
        # A '>' or '=' right after a '>': C++ reads the two as one token (`>>`, `>=`), which the tokenizer
        # splits, a template's closing '>' being a token of its own.
        self.glued = False

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
    for previous, t in zip(tokens, tokens[1:]):
        t.glued = previous.text == ">" and t.text in (">", "=")
    return mark_directives(join_spaced_chevrons(tokens))


def mark_directives(tokens):
    """Marks the tokens of preprocessor lines (continued lines and comments spanning lines included), so that
    brackets there are not paired with the code's (`#if N > 1` in a parameter list, `#include <x>` before a
    kernel)."""
    directive = False
    for t in tokens:
        if t.kind == "hash":
            directive = True
        elif t.kind == "newline":
            directive = False
        t.directive = directive
    return tokens


def join_spaced_chevrons(tokens):
    """`k << < g, b >> > (x)` is a launch too (nvcc reads `<<<` with blanks, comments or line breaks between
    its '<'s): where '<'s separated only by those make three, they become one '<<<' token, the blanks kept
    after it (line numbers stay); no valid C++ puts a '<' after '<<'.
    The closing '>'s are single tokens already (launch_end skips blanks between them)."""
    joined, i = [], 0
    while i < len(tokens):
        t = tokens[i]
        if t.kind == "punct" and t.text in ("<", "<<", "<<<") and after_operator_keyword(joined):
            # `operator<< <T>` and `operator<<<T>` name a template specialization of operator<<, as C++ reads them.
            joined.extend([Token("punct", "<<", t.line), Token("punct", "<", t.line)] if t.text == "<<<" else [t])
            i += 1
            continue
        if t.kind == "punct" and t.text in ("<", "<<"):
            run, count, j = [i], len(t.text), i + 1
            while count < 3 and j < len(tokens):
                if tokens[j].kind in ("space", "comment", "newline"):
                    j += 1
                    continue
                if tokens[j].kind == "punct" and tokens[j].text in ("<", "<<") and count + len(tokens[j].text) <= 3:
                    count += len(tokens[j].text)
                    run.append(j)
                    j += 1
                    continue
                break
            if count == 3 and len(run) > 1:
                joined.append(Token("punct", "<<<", t.line))
                joined.extend(tokens[k] for k in range(i + 1, run[-1] + 1) if k not in run)
                i = run[-1] + 1
                continue
        joined.append(t)
        i += 1
    return joined


def after_operator_keyword(tokens):
    """Whether the last significant token of `tokens` is `operator`, or `operator<<`'s or `operator<`'s name."""
    k = significant(tokens, len(tokens), -1)
    if k is not None and tokens[k].text in ("<<", "<"):
        k = significant(tokens, k, -1)
    return k is not None and tokens[k].text == "operator"


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
    """Index of the bracket closing the one at i (brackets on preprocessor lines pair only among themselves)."""
    pairs = {"(": ")", "[": "]", "{": "}"}
    opening, closing = tokens[i].text, pairs[tokens[i].text]
    depth = 0
    for j in range(i, len(tokens)):
        if tokens[j].kind != "punct" or tokens[j].directive != tokens[i].directive:
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
        if t.kind != "punct" or t.directive != tokens[i].directive:
            continue
        if t.text == closing:
            depth += 1
        elif t.text == opening:
            depth -= 1
            if depth == 0:
                return j
    raise RewriteError(tokens[i].line, f"unbalanced '{closing}'")


def replacement_start(tokens, k):
    """Index of the first token of the replacement list of the macro definition holding token k (after
    `#define NAME` or `#define NAME(parameters)`); for another directive, of the token after its '#'."""
    while k > 0 and tokens[k - 1].directive:
        k -= 1
    directive = significant(tokens, k, 1)
    name = significant(tokens, directive, 1) if directive is not None else None
    if name is None or tokens[directive].text != "define":
        return k + 1
    if name + 1 < len(tokens) and tokens[name + 1].text == "(":  # a function-like macro: '(' right after the name
        return match_forward(tokens, name + 1) + 1
    return name + 1


def kernel_expression_start(tokens, last):
    """Index of the first token of the postfix expression ending at `last` (in a macro definition, within
    its replacement list)."""
    floor = replacement_start(tokens, last) if tokens[last].directive else 0
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
            if before is not None and before >= floor and is_expression_end(tokens[before]) and (
                tokens[start].text == "[" or tokens[before].kind != "ident" or tokens[before].text not in KEYWORDS
            ):
                if tokens[before].text == ")" and condition_parentheses(tokens, before):
                    return start  # `if (c) (k)<<<...`: the condition is not part of the kernel
                i = before
                continue
        else:
            raise RewriteError(t.line, "cannot find the kernel expression before '<<<'")
        before = significant(tokens, start, -1)
        if before is None or before < floor:
            return start
        b = tokens[before]
        if b.kind == "punct" and b.text in ("::", ".", "->"):
            prior = significant(tokens, before, -1)
            if b.text == "::" and (prior is None or not is_expression_end(tokens[prior]) or tokens[prior].text in (")", "]")):
                return before  # ::kernel (after `for (...)`, say: what ends in ')' or ']' qualifies no name)
            if prior is not None and tokens[prior].kind == "ident" and tokens[prior].text == "template":
                prior = significant(tokens, prior, -1)
            i = prior
            continue
        return start


def condition_parentheses(tokens, close):
    """Whether the ')' at `close` ends the condition of an if, while, for or switch."""
    opening = significant(tokens, match_backward(tokens, close), -1)
    return opening is not None and tokens[opening].text in ("if", "while", "for", "switch")


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
                closers = [j]  # the '>'s of this run, blanks between them skipped (`>> >`)
                k = significant(tokens, j, 1)
                while k is not None and tokens[k].kind == "punct" and tokens[k].text == ">":
                    closers.append(k)
                    k = significant(tokens, k, 1)
                if len(closers) >= 3 and k is not None and tokens[k].text == "(":
                    return closers[-3], closers[-1]
                j = closers[-1] + 1
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


def kept_lines(tokens, first, last):
    """The line breaks of tokens first..last, to stand in for them where they are replaced, so that line numbers
    stay: continued lines in a macro definition, whose end a line break would be."""
    count = sum(t.text.count("\n") for t in tokens[first : last + 1] if t.kind in ("newline", "space", "comment", "string"))
    return ("\\\n" if tokens[first].directive else "\n") * count


def text_of(tokens, first, last):
    return spelled(tokens[first : last + 1])


def spelled(tokens, replacements=None):
    """The significant tokens' text on one line: a space between two, none before a glued one (`>>` stays a
    shift), an identifier in `replacements` replaced."""
    text = ""
    for t in tokens:
        if t.kind in ("space", "comment", "newline"):
            continue
        piece = replacements.get(t.text, t.text) if replacements and t.kind == "ident" else t.text
        text += ("" if not text or t.glued else " ") + piece
    return text


def with_depth(tokens, first, last):
    """The significant tokens first..last, each with the bracket depth after it (an opening bracket
    counts as inside what it opens, a closing one as outside). Angle brackets count outside parentheses,
    brackets and braces only, where a '<' or '>' inside them may be an operator (`S<(N >> 1)>`)."""
    nested, angles = 0, 0
    for t in tokens[first : last + 1]:
        if t.kind in ("space", "comment", "newline") or t.directive != tokens[first].directive:
            continue
        if t.text in ("(", "[", "{"):
            nested += 1
        elif t.text in (")", "]", "}"):
            nested -= 1
        elif t.text == "<" and nested == 0:
            angles += 1
        elif t.text == ">" and nested == 0:
            angles -= 1
        yield t, nested + angles


def top_level_count(tokens, first, last):
    """How many comma-separated items tokens first..last hold, at bracket depth 0."""
    items, seen = 0, False
    for t, depth in with_depth(tokens, first, last):
        if depth == 0 and t.text == ",":
            items += 1
        else:
            seen = True
    return items + 1 if seen else 0


def angle_close(tokens, i):
    """The '>' closing the template parameter list opened by the '<' at i."""
    depth = 0
    for j in range(i, len(tokens)):
        t = tokens[j]
        if t.kind != "punct":
            continue
        if t.text in ("(", "["):
            continue
        if t.text == "<":
            depth += 1
        elif t.text == ">":
            depth -= 1
            if depth == 0:
                return j
    raise RewriteError(tokens[i].line, "unbalanced '<' in a template parameter list")


def deduced_kernels(tokens):
    """The __global__ functions declared in `tokens` whose launches must go through a generic thunk, so
    that the compiler completes the call as nvcc does: {name: template parameter count}. Function
    templates (launched without all their template arguments, they are deduced) and, with count 0,
    kernels with default arguments (a function pointer has none)."""
    kernels = {}
    for i, t in enumerate(tokens):
        if t.kind != "ident" or t.text != "__global__":
            continue
        j, name = i, None
        while j is not None and tokens[j].text not in ("(", ";", "{"):
            if tokens[j].text in ("__launch_bounds__", "__attribute__"):
                j = match_forward(tokens, significant(tokens, j, 1))
            elif tokens[j].kind == "ident":
                name = tokens[j].text
            j = significant(tokens, j, 1)
        if not name or j is None or tokens[j].text != "(":
            continue
        k = significant(tokens, i, -1)
        while (k is not None and tokens[k].text not in (";", "{", "}") and tokens[k].text != "template"
               and not tokens[k].directive):
            k = significant(tokens, k, -1)
        if k is not None and tokens[k].text == "template":
            opening = significant(tokens, k, 1)
            kernels[name] = top_level_count(tokens, opening + 1, angle_close(tokens, opening) - 1)
        elif has_default_argument(tokens, j + 1, match_forward(tokens, j) - 1):
            kernels.setdefault(name, 0)
    return kernels


def has_default_argument(tokens, first, last):
    """Whether a parameter list gives a default argument (an '=' at bracket depth 0)."""
    return any(depth == 0 and t.text == "=" for t, depth in with_depth(tokens, first, last))


def open_launch(tokens, out, last, templates):
    """Begins the rewrite of a launch whose kernel expression ends at token `last`, and returns the text that
    goes between that expression and the launch's configuration."""
    start = kernel_expression_start(tokens, last)
    # `case 1:k<<<...` must not become `case 1:::cohort...` (nor with a line continuation between)
    previous = start - 1
    while previous >= 0 and tokens[previous].text == "\\\n":
        previous -= 1
    glue = " " if previous >= 0 and tokens[previous].text.endswith(":") else ""
    name, explicit = last, None  # the kernel's name, how many template arguments it is given
    if tokens[last].kind == "punct" and tokens[last].text == ">":
        opening = angle_open(tokens, last)
        name, explicit = significant(tokens, opening, -1), top_level_count(tokens, opening + 1, last - 1)
    kernel = tokens[name].text if name is not None and tokens[name].kind == "ident" else None
    if kernel in templates and (explicit is None or explicit < templates[kernel]):
        # A function template named without (all) its arguments, or a kernel with default
        # arguments: the call is completed as nvcc does, by calling it from a generic thunk.
        # A kernel that is not a template gives its type, so that the arguments take its types.
        expression = text_of(tokens, start, last)  # qualified as the launch names it: ns::k
        signature = f"<decltype(&{expression})>" if templates[kernel] == 0 and explicit is None else ""
        out[start] = f"{glue}::cohort::compat::chevron_deduced{signature}([](auto... cohort_a) {{ " + out[start]
        return "(cohort_a...); },"
    out[start] = glue + "::cohort::compat::chevron(" + out[start]
    return ","


def configuration_macro(tokens, i):
    """(name, parameter names or None, indices of the first and last closing '>') when the '<<<' at i begins the replacement of a
    macro that is a launch's configuration alone (`#define KERNEL_ARGS2(g, b) <<<g, b>>>`, used as
    `k KERNEL_ARGS2(g, b)(x)`); None otherwise."""
    if not tokens[i].directive:
        return None
    before = significant(tokens, i, -1)
    parameters = None
    if before is not None and tokens[before].text == ")":
        opening = match_backward(tokens, before)
        parameters = [tokens[k].text for k in range(opening + 1, before) if tokens[k].kind == "ident" or tokens[k].text == "..."]
        before = significant(tokens, opening, -1)
    define = significant(tokens, before, -1) if before is not None else None
    hash_ = significant(tokens, define, -1) if define is not None else None
    if hash_ is None or tokens[hash_].kind != "hash" or tokens[define].text != "define" or tokens[before].kind != "ident":
        return None
    first, close = launch_end_of_directive(tokens, i)
    return tokens[before].text, parameters, first, close


def launch_end_of_directive(tokens, i):
    """(first, last) indices of the three '>' that end, with the directive, the configuration opened at i."""
    end = i
    while end + 1 < len(tokens) and tokens[end + 1].directive:
        end += 1
    last = [k for k in range(i + 1, end + 1) if tokens[k].kind not in ("space", "comment", "newline")][-3:]
    if len(last) < 3 or any(tokens[k].text != ">" for k in last):
        raise RewriteError(tokens[i].line, "a macro that begins with '<<<' must be a launch's whole configuration, "
                           "as in '#define CONFIG(g, b) <<<g, b>>>'")
    return last[0], last[-1]


def configuration_use(tokens, i, function_like):
    """(index of the kernel expression's last token, argument texts, index of the use's last token) for a use
    of a configuration macro at i (`k CONFIG(g, b)(x)`, `k CONFIG(x)`), or None where the name is not used so."""
    last = significant(tokens, i, -1)
    if last is None or not is_expression_end(tokens[last]) or tokens[i].directive and not tokens[last].directive:
        return None
    following = significant(tokens, i, 1)
    arguments, close = [], i
    if function_like:
        if following is None or tokens[following].text != "(":
            return None
        close = match_forward(tokens, following)
        pieces, depth = [[]], 0
        for t in tokens[following + 1 : close]:
            if t.kind in ("space", "comment", "newline"):
                continue
            if t.text in ("(", "[", "{"):
                depth += 1
            elif t.text in (")", "]", "}"):
                depth -= 1
            if depth == 0 and t.text == ",":
                pieces.append([])
            else:
                pieces[-1].append(t)
        arguments = [spelled(p) for p in pieces] if any(pieces) else []
    after = significant(tokens, close, 1)
    if after is None or tokens[after].text != "(":
        return None
    return last, arguments, close


def substitute(parameters, arguments, config, line):
    """A configuration macro's replacement text with its arguments in place of its parameters."""
    if parameters is None:
        return config
    named = [p for p in parameters if p != "..."]
    values = dict(zip(named, arguments))
    if "..." in parameters:
        values["__VA_ARGS__"] = ", ".join(arguments[len(named):])
    elif len(arguments) != len(named):
        raise RewriteError(line, f"a configuration macro given {len(arguments)} arguments for {len(named)} parameters")
    return spelled(tokenize(config), values)


def rewrite_tokens(tokens, include=None, templates=None, config_macros=None):
    """The rewritten text; `include` maps a quoted include's name to the name to include instead (or
    None); `templates` maps the kernels launched through a thunk seen so far (deduced_kernels; this file's
    are added) to their template parameter counts; `config_macros` maps the macros seen so far that are a
    launch's configuration alone (configuration_macro; this file's are added) to (parameters, configuration)."""
    out = [t.text for t in tokens]
    templates = templates if templates is not None else {}
    config_macros = config_macros if config_macros is not None else {}
    templates |= deduced_kernels(tokens)
    kinds = scope_kinds(tokens)
    scopes = []  # True: namespace-like
    registrations = {}  # index of a closing '}' -> text to append
    i = 0
    while i < len(tokens):
        t = tokens[i]
        if t.kind == "punct" and t.text == "{":
            scopes.append(kinds[i])
        elif t.kind == "punct" and t.text == "}":
            if scopes:
                scopes.pop()
            if i in registrations:
                out[i] += registrations.pop(i)
        elif t.kind == "punct" and t.text == ";" and i in registrations:
            out[i] += registrations.pop(i)
        elif t.kind == "punct" and t.text == "<<<" and (macro := configuration_macro(tokens, i)) is not None:
            name, parameters, first, close = macro
            config_macros[name] = (parameters, text_of(tokens, i + 1, first - 1))
            i = close  # the definition stays: its uses are rewritten
        elif t.kind == "punct" and t.text == "<<<":
            last = significant(tokens, i, -1)
            if last is None:
                raise RewriteError(t.line, "'<<<' without a kernel")
            first, close = launch_end(tokens, i)
            out[i] = open_launch(tokens, out, last, templates)
            for k in range(first, close + 1):
                out[k] = ""
            out[close] = ")" + kept_lines(tokens, first, close)  # line breaks between the '>'s stay
            i = close
        elif (t.kind == "ident" and t.text in config_macros
              and (use := configuration_use(tokens, i, config_macros[t.text][0] is not None)) is not None):
            last, arguments, close = use
            parameters, config = config_macros[t.text]
            for k in range(i + 1, close + 1):
                out[k] = ""
            out[i] = (open_launch(tokens, out, last, templates) + substitute(parameters, arguments, config, t.line) + ")"
                      + kept_lines(tokens, i, close))
            i = close
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
        elif t.kind == "ident" and t.text == "extern" and (shared := extern_shared_specifier(tokens, i)) is not None:
            # The declaration ends at its ';' or, in a macro definition, with the directive.
            end = i
            while end < len(tokens) and tokens[end].text != ";" and not (t.directive and tokens[end].kind == "newline"):
                end += 1
            if end == len(tokens):
                raise RewriteError(t.line, "'extern __shared__' without ';'")
            replacement = dynamic_shared(tokens, i + 1, end, all(scopes), skip=shared)
            if tokens[end].kind == "newline":
                replacement = replacement[:-1]  # the macro's user writes the ';'
                end -= 1
            out[i] = replacement + kept_lines(tokens, i, end)
            for k in range(i + 1, end + 1):
                out[k] = ""
            i = end
        elif t.kind == "ident" and t.text in ("asm", "__asm__", "__asm") and (statement := asm_statement(tokens, i)):
            close, replacement = statement
            out[i] = replacement + kept_lines(tokens, i, close)
            for k in range(i + 1, close + 1):
                out[k] = ""
            i = close
        elif t.kind == "ident" and t.text == "__shared__":
            i = rewrite_shared_specifiers(tokens, out, i)
        elif t.kind == "ident" and t.text == "__constant__" and all(scopes) and not t.directive:
            registration = constant_registration(tokens, i)
            if registration:
                end, text = registration
                registrations[end] = registrations.get(end, "") + text
        elif t.kind == "ident" and t.text == "__global__" and all(scopes):
            registration = global_registration(tokens, i)
            if registration:
                close, text = registration
                registrations[close] = registrations.get(close, "") + text
        i += 1
    return "".join(out)


def c_string(literal):
    """The characters of a C string literal's token (escapes resolved; a prefix is not expected in asm)."""
    body = literal[literal.index('"') + 1 : -1]
    return body.encode("utf-8", "surrogateescape").decode("unicode_escape")


def asm_statement(tokens, i):
    """(index of the closing ')', C++ replacement) of the inline-assembly statement at i, or None when
    `asm` there is not one. Its PTX is translated (cohort_ptx); what cannot be becomes a compile error
    naming the instruction, at the statement."""
    k = significant(tokens, i, 1)
    while k is not None and tokens[k].text in ("volatile", "__volatile__", "__volatile", "inline", "goto"):
        k = significant(tokens, k, 1)
    if k is None or tokens[k].text != "(":
        return None
    close = match_forward(tokens, k)
    sections, current, depth = [[]], [], 0
    for t in tokens[k + 1 : close]:
        if t.kind in ("space", "comment", "newline"):
            continue
        if t.text in ("(", "[", "{"):
            depth += 1
        elif t.text in (")", "]", "}"):
            depth -= 1
        if depth == 0 and t.text in (":", "::"):
            for _ in t.text:
                sections.append([])
            continue
        sections[-1].append(t)
    text = "".join(c_string(t.text) for t in sections[0] if t.kind == "string")
    try:
        if any(t.kind != "string" for t in sections[0]) or len(sections) > 4:
            raise cohort_ptx.Untranslatable(text.strip() or "asm")
        outputs = asm_operands(sections[1]) if len(sections) > 1 else []
        inputs = asm_operands(sections[2]) if len(sections) > 2 else []
        replacement = cohort_ptx.translate(cohort_ptx.Asm(text, outputs, inputs, extended=len(sections) > 1))
    except cohort_ptx.Untranslatable as e:
        instruction = str(e).replace("\\", "\\\\").replace('"', '\\"')
        replacement = (
            '[]() { static_assert(false, "cohort: the inline PTX instruction `' + instruction + '` is not '
            "supported on the host backend (docs/cuda-compat.md lists those that are): keep it under "
            '#ifdef __CUDA_ARCH__ with a C++ fallback, or write it with CUDA\'s intrinsics"); }()'
        )
    return close, replacement


def asm_operands(section):
    """[(constraint, expression text)] of an asm operand list: `"=r"(x), "l"(p + 1)`."""
    operands, j = [], 0
    while j < len(section):
        t = section[j]
        if t.text == ",":
            j += 1
            continue
        if t.kind != "string" or j + 1 >= len(section) or section[j + 1].text != "(":
            raise cohort_ptx.Untranslatable("asm operand " + t.text)
        depth, end = 0, j + 1
        for end in range(j + 1, len(section)):
            if section[end].text == "(":
                depth += 1
            elif section[end].text == ")":
                depth -= 1
                if depth == 0:
                    break
        operands.append((c_string(t.text), spelled(section[j + 2 : end])))
        j = end + 1
    return operands


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


def extern_shared_specifier(tokens, i):
    """The index of `__shared__` among the specifiers of the `extern` declaration at i, which may follow
    the type (`extern float __shared__ s[];`, as valid as `extern __shared__ float s[];`), or None."""
    k = significant(tokens, i, 1)
    while k is not None and tokens[k].text not in (";", "[", "(", "=", "{", "}", ",") and tokens[k].kind != "string":
        if tokens[k].text == "__shared__":
            return k
        k = significant(tokens, k, 1)
    return None


def dynamic_shared(tokens, first, end, at_namespace_scope, skip):
    """The replacement of `extern <first..end)` (end is the ';', or the end of a macro definition), a
    dynamic shared array whose `__shared__` specifier is at `skip`."""
    parts = []
    k = first
    while k < end:
        t = tokens[k]
        if t.kind in ("space", "comment", "newline") or k == skip:
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
    type_text = spelled([tokens[p] for p in parts[:-3]])
    if at_namespace_scope:
        return f"[[maybe_unused]] static constexpr ::cohort::compat::dynamic_shared_array<{type_text}> {name}{{}};"
    return f"{type_text}* const {name} = ::cohort::dynamic_shared<{type_text}>();"


def global_registration(tokens, i):
    """(index of the body's closing '}', text) for a __global__ function definition that is not a template."""
    k = significant(tokens, i, -1)
    while k is not None and tokens[k].text not in (";", "{", "}") and not tokens[k].directive:
        if tokens[k].text == "template" or tokens[k].text == ">":
            return None
        k = significant(tokens, k, -1)
    j = i
    name = None
    cluster_dims = None  # the text of __cluster_dims__'s arguments
    max_threads = None  # the text of __launch_bounds__'s first argument
    while j is not None and j < len(tokens):
        t = tokens[j]
        if t.text == "__cluster_dims__":
            opening = significant(tokens, j, 1)
            j = match_forward(tokens, opening)
            cluster_dims = spelled(tokens[opening + 1 : j])
        elif t.text == "__launch_bounds__":
            opening = significant(tokens, j, 1)
            j = match_forward(tokens, opening)
            max_threads = spelled(first_argument(tokens, opening + 1, j - 1))
        elif t.text == "__attribute__":
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
    if any(t.kind == "hash" for t in tokens[j:params_close]):
        # An #if in the parameter list: its text cannot be repeated on one line; the name alone
        # names the kernel unless it is overloaded, which the compiler then reports.
        kernel = f"&{name}"
    else:
        kernel = f"static_cast<void (*)({strip_defaults(tokens, j + 1, params_close - 1)})>(&{name})"
    declared = ""
    if cluster_dims or max_threads:
        declared = f", dim3({cluster_dims or '1, 1, 1'})"
    if max_threads:
        declared += f", static_cast<int>({max_threads})"
    return close, (
        " [[maybe_unused]] static const bool COHORT_COMPAT_UNIQUE(cohort_kernel_registered_) = "
        f"::cohort::compat::register_global({kernel}{declared});"
    )


def constant_registration(tokens, i):
    """(index of the declaration's ';', text) registering the variables a namespace-scope definition with the
    `__constant__` at i defines, so that __isConstant knows their bytes; None for a declaration (`extern`) or
    a template."""
    k = significant(tokens, i, -1)
    while k is not None and tokens[k].text not in (";", "{", "}") and not tokens[k].directive:
        if tokens[k].text in ("extern", "template", ">"):
            return None
        k = significant(tokens, k, -1)
    names, angles, in_initializer = [], 0, False
    j = significant(tokens, i, 1)
    while j is not None and tokens[j].text != ";":
        t = tokens[j]
        if t.kind == "hash" or (t.kind == "ident" and t.text == "extern"):
            return None
        following = significant(tokens, j, 1)
        if t.text in ("(", "[", "{"):
            in_initializer = in_initializer or (t.text == "{" and angles == 0)  # `S s{1, 2}`
            j = match_forward(tokens, j)
        elif in_initializer:
            in_initializer = t.text != ","
        elif t.text == "<":
            angles += 1
        elif t.text == ">":
            angles -= 1
        elif t.text == "=" and angles == 0:
            in_initializer = True
        elif (t.kind == "ident" and angles == 0 and following is not None
              and tokens[following].text in ("[", "=", "{", ",", ";")):
            names.append(t.text)
        j = significant(tokens, j, 1)
    if j is None or not names:
        return None
    return j, "".join(
        " [[maybe_unused]] static const bool COHORT_COMPAT_UNIQUE(cohort_constant_registered_) = "
        f"::cohort::compat::register_constant(__builtin_addressof({name}), sizeof({name}));"
        for name in names
    )


def first_argument(tokens, first, last):
    """The tokens of the first top-level argument in tokens[first..last]."""
    depth = 0
    for k in range(first, last + 1):
        text = tokens[k].text
        if text in ("(", "[", "{"):
            depth += 1
        elif text in (")", "]", "}"):
            depth -= 1
        elif text == "," and depth == 0:
            return tokens[first:k]
    return tokens[first : last + 1]


def strip_defaults(tokens, first, last):
    """The parameter list's text without default arguments, on one line."""
    pieces, skipping = [], False
    for t, depth in with_depth(tokens, first, last):
        if depth == 0 and t.text == ",":
            skipping = False
        elif depth == 0 and t.text == "=" and not t.glued:
            skipping = True
        if not skipping:
            pieces.append(t)
    return spelled(pieces)


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
        "#define COHORT_CUDA_ON_HOST 1\n#ifndef __CUDACC__\n#define __CUDACC__ 1\n#endif\n"
        "#include <cuda_runtime.h>\n" + line_directive(path) + body
    )


# What makes a header (or a host .cpp file) need the rewriter: the constructs it changes.
HEADER_TRIGGERS = ("<<<", "__shared__", "__global__", "__constant__", "asm")


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
        self.templates = {}  # kernels launched through a thunk, of the files rewritten so far (deduced_kernels)

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
        # Bytes that are not UTF-8 (a Latin-1 comment) pass through unchanged.
        with open(path, encoding="utf-8", errors="surrogateescape") as f:
            self.read.append(path)
            return f.read()

    def _includes_rewritten(self, tokens, including):
        """Whether a header quoted in `tokens` (transitively) was rewritten, so that the including file
        must be too, to include the rewritten copy."""
        import os

        resolve = self._resolver(including)
        for i, t in enumerate(tokens):
            if t.kind != "hash":
                continue
            d = significant(tokens, i, 1)
            name = significant(tokens, d, 1) if d is not None else None
            if d is None or tokens[d].text != "include" or name is None or tokens[name].kind != "string":
                continue
            quoted = tokens[name].text[1:-1]
            found = resolve(quoted)
            if found is not None and found != os.path.normpath(os.path.join(os.path.dirname(including), quoted)):
                return True
        return False

    def _resolver(self, including):
        import os

        def resolve(name):
            candidate = os.path.normpath(os.path.join(os.path.dirname(including), name))
            if not os.path.isfile(candidate):
                return None
            if candidate in self.rewritten:
                return self.rewritten[candidate]
            text = self._read(candidate)
            self.rewritten[candidate] = candidate  # until rewritten: an include cycle back here takes the original
            tokens = self._located(candidate, lambda: tokenize(text))
            if not any(trigger in text for trigger in HEADER_TRIGGERS) and not self._includes_rewritten(tokens, candidate):
                return candidate  # found from the including file's own directory, wherever that now is
            import hashlib

            tag = hashlib.md5(candidate.encode()).hexdigest()[:8]
            target = os.path.join(self.header_dir, tag, os.path.basename(candidate))
            self.rewritten[candidate] = target
            os.makedirs(os.path.dirname(target), exist_ok=True)
            body = line_directive(candidate) + self._located(
                candidate, lambda: rewrite_tokens(tokens, self._resolver(candidate), self.templates)
            )
            with open(target, "w", encoding="utf-8", errors="surrogateescape") as f:
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
    with open(args.output, "w", encoding="utf-8", errors="surrogateescape") as f:
        f.write(text)
    if args.depfile:
        with open(args.depfile, "w", encoding="utf-8") as f:
            f.write(args.output.replace(" ", "\\ ") + ": " + " ".join(p.replace(" ", "\\ ") for p in project.read) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
