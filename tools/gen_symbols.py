#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The public ABI of libidlelab, read from the installed headers.

Usage: gen_symbols.py --map OUT.map HEADER...   (a GNU ld version script)
       gen_symbols.py --list HEADER...          (the names, one a line)

A name is public when an installed header declares it: a function
prototype or an extern variable. static inline functions, macros, types
and struct members are not symbols. Every public name must start with
"il_"; a header that declares anything else, or defines a function that
is not static, is refused, so the ABI has one namespace and lives only in
the headers. The shared library exports these names and nothing else.
"""
import re
import sys

IDENT = re.compile(r'[A-Za-z_][A-Za-z0-9_]*')


CPLUSPLUS = re.compile(r'^#\s*ifdef\s+__cplusplus\s*\n.*?^#\s*endif[^\n]*$', re.M | re.S)


def strip(text):
    """Comments, preprocessor lines, string and char literals removed; the
    #ifdef __cplusplus blocks (the extern "C" { and its }) go whole."""
    text = CPLUSPLUS.sub('', text)
    out = []
    i, n = 0, len(text)
    at_line_start = True
    while i < n:
        c = text[i]
        if text.startswith('/*', i):
            j = text.find('*/', i + 2)
            if j < 0:
                raise ValueError('unterminated comment')
            out.append(' ')
            i = j + 2
            continue
        if text.startswith('//', i):
            j = text.find('\n', i)
            i = n if j < 0 else j
            continue
        if at_line_start and c == '#':
            # a directive, with its continuation lines
            while i < n and text[i] != '\n':
                if text[i] == '\\' and i + 1 < n and text[i + 1] == '\n':
                    i += 2
                    continue
                i += 1
            continue
        if c in '"\'':
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == '\\' else 1
            out.append('0')
            i = j + 1
            at_line_start = False
            continue
        if c == '\n':
            at_line_start = True
        elif not c.isspace():
            at_line_start = False
        out.append(c)
        i += 1
    return ''.join(out)


def drop_attributes(text):
    """__attribute__((...)) groups removed (they may hold parentheses)."""
    while True:
        m = re.search(r'__attribute__\s*\(', text)
        if not m:
            return text
        depth, j = 0, m.end() - 1
        while j < len(text):
            if text[j] == '(':
                depth += 1
            elif text[j] == ')':
                depth -= 1
                if depth == 0:
                    break
            j += 1
        text = text[:m.start()] + ' ' + text[j + 1:]


def skip_braces(text, i):
    """Index after the '}' that closes the '{' at i."""
    depth = 0
    while i < len(text):
        if text[i] == '{':
            depth += 1
        elif text[i] == '}':
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    raise ValueError('unbalanced braces')


def declarations(text):
    """Top-level declarations: (text, is_function_definition)."""
    chunk, i = [], 0
    while i < len(text):
        c = text[i]
        if c == '{':
            before = ''.join(chunk).rstrip()
            end = skip_braces(text, i)
            if before.endswith(')'):
                yield before, True
                chunk, i = [], end
                continue
            chunk.append(' {} ')  # a struct, union or enum body
            i = end
            continue
        if c == ';':
            yield ''.join(chunk), False
            chunk = []
        else:
            chunk.append(c)
        i += 1
    if ''.join(chunk).strip():
        raise ValueError('declaration without ";" at the end of the file')


def declared_name(decl):
    """The name a declaration gives storage to, or None."""
    words = IDENT.findall(decl)
    if not words or words[0] == 'typedef':
        return None
    # struct/union/enum definitions or declarations without a declarator
    if re.fullmatch(r'\s*(struct|union|enum)\s+\w*\s*(\{\s*\})?\s*', decl):
        return None
    p = decl.find('(')
    if p >= 0:
        rest = decl[p + 1:].lstrip()
        if rest.startswith('*'):          # pointer to function: (*name)(...)
            m = IDENT.search(rest)
            return m.group(0) if m else None
        names = IDENT.findall(decl[:p])
        return names[-1] if names else None
    head = re.split(r'[\[=]', decl, maxsplit=1)[0]
    names = IDENT.findall(head)
    return names[-1] if names else None


def public_names(paths):
    names = {}
    for path in paths:
        with open(path, encoding='utf-8') as f:
            text = drop_attributes(strip(f.read()))
        for decl, is_def in declarations(text):
            words = IDENT.findall(decl)
            if 'static' in words:
                continue
            where = f'{path}: "{" ".join(decl.split())[:80]}"'
            if is_def:
                raise ValueError(f'{where}: a function defined in a header must be static')
            name = declared_name(decl)
            if name is None:
                continue
            if not name.startswith('il_'):
                raise ValueError(f'{where}: public name {name} does not start with il_')
            names.setdefault(name, path)
    return sorted(names)


def main(argv):
    if len(argv) < 3 or argv[1] not in ('--map', '--list') or (argv[1] == '--map' and len(argv) < 4):
        sys.stderr.write(__doc__)
        return 2
    try:
        if argv[1] == '--map':
            out, headers = argv[2], argv[3:]
        else:
            out, headers = None, argv[2:]
        names = public_names(headers)
    except (OSError, ValueError) as e:
        sys.stderr.write(f'gen_symbols.py: {e}\n')
        return 1
    if out is None:
        sys.stdout.write(''.join(n + '\n' for n in names))
        return 0
    with open(out, 'w', encoding='utf-8') as f:
        f.write('/* generated by tools/gen_symbols.py from the installed headers */\n')
        f.write('{\nglobal:\n')
        f.writelines(f'\t{n};\n' for n in names)
        f.write('local:\n\t*;\n};\n')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
