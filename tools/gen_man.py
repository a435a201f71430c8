#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Manual pages from the help that idlelab prints.

Usage: gen_man.py IDLELAB VERSION OUTDIR COMMAND...

Writes OUTDIR/idlelab.1 from `IDLELAB help` and OUTDIR/idlelab-COMMAND.1
from `IDLELAB help COMMAND` for each COMMAND, which must be exactly the
commands `IDLELAB help` lists (so the build's list cannot go stale). The
help text is the one source; this script only reads its layout:

  usage: idlelab CMD ...      the synopsis, up to the first blank line;
         idlelab CMD ...      another form; deeper lines continue one
  Text at column 0            paragraphs (a blank line ends one)
    TERM  TEXT                a list item: TERM, two or more spaces, TEXT
                              (lines at TEXT's column continue it)
    NAME: TEXT                an item whose term ends in a colon
        TERM  TEXT            deeper lines at another column: a list
                              inside the item above

Anything the help says is kept; only its layout becomes troff.
"""
import re
import subprocess
import sys

SECTION = '1'


def esc(text):
    """Text for troff: backslashes, hyphens (every one is typed as '-'),
    characters beyond ASCII, `code` in bold."""
    text = text.replace('\\', '\\e').replace('-', '\\-')
    # other than ASCII by code point, so no input encoding needs declaring
    text = ''.join(c if ord(c) < 128 else f'\\[u{ord(c):04X}]' for c in text)
    return re.sub(r'`([^`]+)`', r'\\fB\1\\fR', text)


def line(text):
    """A text line that troff will not read as a request."""
    return '\\&' + text if text[:1] in ('.', "'") else text


def term_troff(term):
    """Option names bold, their arguments italic; other terms bold."""
    if not term.startswith('-'):
        colon = ':' if term.endswith(':') else ''
        return '\\fB' + esc(term[:len(term) - len(colon)]) + '\\fR' + colon
    out = []
    for word in term.split(' '):
        comma = word.endswith(',')
        w = word[:-1] if comma else word
        if w.startswith('-'):
            name, eq, arg = w.partition('=')
            s = '\\fB' + esc(name) + '\\fR' + (('=\\fI' + esc(arg) + '\\fR') if eq else '')
        else:
            s = '\\fI' + esc(w) + '\\fR'
        out.append(s + (',' if comma else ''))
    return ' '.join(out)


def indent(s):
    return len(s) - len(s.lstrip(' '))


class Item:
    def __init__(self, term, text, col):
        self.term = term
        self.text = [text] if text else []
        self.col = col          # column of the text; continuation lines start there
        self.sub = []           # lines of a list inside this item


def split_item(s, base, col_hint):
    """(term, text, text column) of an item line at indent base."""
    body = s[base:]
    m = re.match(r'(\S.*?)( {2,})(\S.*)$', body)
    if m:
        return m.group(1), m.group(3), base + len(m.group(1)) + len(m.group(2))
    # one space before the text: the column the other items use
    if col_hint and len(s) > col_hint and s[col_hint - 1] == ' ' and s[col_hint] != ' ' \
            and s[base] == '-':
        return s[base:col_hint].rstrip(), s[col_hint:], col_hint
    # "name: text", its text folded under itself (sim's workload headings)
    m = re.match(r'([\w.-]+:) (\S.*)$', body)
    if m:
        return m.group(1), m.group(2), base + len(m.group(1)) + 1
    return body, '', None


def list_troff(lines, out):
    """A run of indented lines as .TP items (nested lists in .RS)."""
    base = indent(lines[0])
    cols = {}
    for s in lines:
        if indent(s) == base:
            m = re.match(r'(\S.*?)( {2,})\S', s[base:])
            if m:
                c = base + len(m.group(1)) + len(m.group(2))
                cols[c] = cols.get(c, 0) + 1
    col_hint = max(cols, key=cols.get) if cols else None
    items = []
    for s in lines:
        ind = indent(s)
        if ind == base:
            items.append(Item(*split_item(s, base, col_hint)))
        elif not items:
            raise ValueError(f'a list starts deeper than its first item: {s!r}')
        else:
            it = items[-1]
            if not it.sub and (it.col == ind or (it.col is None and not it.text)):
                it.col = ind
                it.text.append(s.strip())
            else:
                it.sub.append(s)
    for it in items:
        out.append('.TP')
        out.append(term_troff(it.term))
        if it.text:
            out.append(line(esc(' '.join(it.text))))
        if it.sub:
            out.append('.RS')
            list_troff(it.sub, out)
            out.append('.RE')


def body_troff(lines, out, on_paragraph=None):
    """Paragraphs and lists, in the order of the help."""
    i = 0
    while i < len(lines):
        s = lines[i]
        if not s.strip():
            i += 1
            continue
        if indent(s) == 0:
            para = []
            while i < len(lines) and lines[i].strip() and indent(lines[i]) == 0:
                para.append(lines[i].strip())
                i += 1
            text = ' '.join(para)
            if on_paragraph and on_paragraph(text, out):
                continue
            out.append('.PP')
            out.append(line(esc(text)))
            continue
        run = []
        while i < len(lines) and lines[i].strip() and indent(lines[i]) > 0:
            run.append(lines[i].rstrip())
            i += 1
        list_troff(run, out)


def synopsis(lines, cmd):
    """The usage block as a synopsis: one form a line, the command in bold."""
    if not lines or not lines[0].startswith('usage: '):
        raise ValueError(f'help {cmd}: does not start with "usage: "')
    out = ['.SH SYNOPSIS', '.nf']
    for s in lines:
        s = s[7:] if s.startswith('usage: ') else s[7:] if s.startswith('       ') else s
        prog = 'idlelab' + (' ' + cmd if cmd else '')
        if s.startswith(prog):
            out.append('\\fB' + esc(prog) + '\\fR' + esc(s[len(prog):]))
        else:
            out.append(line(esc(s)))
    out.append('.fi')
    return out


def blocks(text):
    lines = text.rstrip('\n').split('\n')
    n = lines.index('') if '' in lines else len(lines)
    return lines[:n], lines[n + 1:]


def page_head(name, summary, version):
    return ['.\\" generated by tools/gen_man.py from `idlelab help`; edit the help, not this',
            f'.TH {esc(name.upper())} {SECTION} "" "idlelab {esc(version)}" "idlelab manual"',
            # names, options and values are not words to hyphenate or stretch
            '.nh', '.ad l',
            '.SH NAME', f'{esc(name)} \\- {esc(summary)}']


def command_page(idlelab, cmd, summary, commands, version):
    usage, rest = blocks(run(idlelab, 'help', cmd))
    out = page_head('idlelab-' + cmd, summary, version) + synopsis(usage, cmd)
    out.append('.SH DESCRIPTION')
    body = []
    body_troff(rest, body)
    # the options start with the first list whose first term is an option
    for k, s in enumerate(body):
        if s == '.TP' and k + 1 < len(body) and body[k + 1].startswith('\\fB\\-'):
            body.insert(k, '.SH OPTIONS')
            break
    out += body
    text = ' '.join(rest)
    seen = [c for c in commands if c != cmd and re.search(r'idlelab ' + re.escape(c) + r'\b', text)]
    out.append('.SH SEE ALSO')
    out.append(', '.join(['\\fBidlelab\\fR(1)'] +
                         [f'\\fB\\%idlelab\\-{esc(c)}\\fR({SECTION})' for c in seen]))
    return out


def main_page(idlelab, general, commands, version):
    usage, rest = blocks(general)
    out = page_head('idlelab', 'model of the Linux cpuidle subsystem', version)
    out += synopsis(usage, '')
    out.append('.SH DESCRIPTION')

    def heading(text, o):
        if text == 'Commands:':
            o.append('.SH COMMANDS')
            return True
        return False

    body = []
    body_troff(rest, body, heading)
    for k, s in enumerate(body):          # each command's item points at its page
        if s == '.TP' and k + 2 < len(body):
            name = body[k + 1][3:-3].replace('\\-', '-')
            if name in commands:
                body[k + 2] += f' (\\fB\\%idlelab\\-{esc(name)}\\fR({SECTION}))'
    out += body
    out.append('.SH SEE ALSO')
    out.append(', '.join(f'\\fB\\%idlelab\\-{esc(c)}\\fR({SECTION})' for c in commands))
    return out


def run(idlelab, *args):
    p = subprocess.run([idlelab, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       check=False, encoding='utf-8')
    if p.returncode != 0:
        raise ValueError(f'{" ".join(["idlelab", *args])}: exit {p.returncode}: {p.stderr.strip()}')
    return p.stdout


def commands_of(general):
    """The command list of `idlelab help`: name and summary."""
    _, rest = blocks(general)
    try:
        k = rest.index('Commands:')
    except ValueError as e:
        raise ValueError('idlelab help lists no "Commands:"') from e
    cmds = {}
    for s in rest[k + 1:]:
        if not s.strip():
            break
        m = re.match(r' +(\S+) +(\S.*)$', s)
        if not m:
            raise ValueError(f'idlelab help: not a command line: {s!r}')
        cmds[m.group(1)] = m.group(2)
    return cmds


def main(argv):
    if len(argv) < 5:
        sys.stderr.write(__doc__)
        return 2
    idlelab, version, outdir, wanted = argv[1], argv[2], argv[3], argv[4:]
    try:
        general = run(idlelab, 'help')
        cmds = commands_of(general)
        if sorted(cmds) != sorted(wanted):
            raise ValueError(f'the build lists the pages {" ".join(sorted(wanted))}; '
                             f'idlelab has the commands {" ".join(sorted(cmds))}')
        names = list(cmds)
        pages = {'idlelab': main_page(idlelab, general, names, version)}
        for c in names:
            pages['idlelab-' + c] = command_page(idlelab, c, cmds[c], names, version)
    except (OSError, ValueError) as e:
        sys.stderr.write(f'gen_man.py: {e}\n')
        return 1
    for name, lines in pages.items():
        with open(f'{outdir}/{name}.{SECTION}', 'w', encoding='utf-8') as f:
            f.write('\n'.join(lines) + '\n')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
