#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The after-inlining hook calls' convention, from the sources that make it.

CONFIG_KFT_AFTER_INLINING's calls are inline asm (the GCC plugin,
scripts/gcc-plugins/kft_plugin.c; the LLVM pass,
scripts/llvm-plugins/kft_pass.cpp) whose clobbers tell the compiler which
registers a hook may change; the hooks are thunks (arch/*/include/asm/kft.h,
kft_thunk.h) that save the others around a C hook of the plain ABI, which
may change every caller-saved register.  A register neither clobbered nor
saved is corrupted at run time; one both clobbered and saved costs a
store and a load a call for nothing.

usage: hook_abi.py REPO
Prints, per arch and hook, "ok|not ok DESCRIPTION" lines (no TAP numbers).
"""
import re
import sys

CALLER_SAVED = {
    'arm64': {f'x{i}' for i in range(19)} | {'x30'},
    'x86_64': {'rax', 'rcx', 'rdx', 'rsi', 'rdi', 'r8', 'r9', 'r10', 'r11'},
}


def strip_comments(text):
    return re.sub(r'/\*.*?\*/|//[^\n]*', '', text, flags=re.S)


def top_level_items(init):
    """The comma-separated items of an initializer's outer braces."""
    items, depth, cur, i = [], 0, '', 0
    while i < len(init):
        c = init[i]
        if c == '"':
            j = i + 1
            while init[j] != '"':
                j += 2 if init[j] == '\\' else 1
            cur += init[i:j + 1]
            i = j + 1
            continue
        if c == '{':
            depth += 1
            if depth == 1:
                i += 1
                continue
        elif c == '}':
            depth -= 1
            if depth == 0:
                break
        if c == ',' and depth == 1:
            items.append(cur.strip())
            cur = ''
        else:
            cur += c
        i += 1
    if cur.strip():
        items.append(cur.strip())
    return items


def strings(item):
    """The string literals of an item, adjacent ones joined."""
    return ''.join(re.findall(r'"((?:[^"\\]|\\.)*)"', item))


def regs_of(names):
    """Register names as the thunks spell them (lr is x30)."""
    return {'x30' if n == 'lr' else n for n in names} - {'cc', 'memory',
                                                         'dirflag', 'fpsr',
                                                         'flags'}


def plugin_clobbers(repo):
    """{arch: (entry clobbers, exit clobbers)} of kft_plugin.c."""
    src = strip_comments(open(f'{repo}/scripts/gcc-plugins/kft_plugin.c').read())
    out = {}
    for arch, attr in (('x86_64', 'no_caller_saved_registers'),
                       ('arm64', 'aarch64_vector_pcs')):
        start = src.index('{ "%s"' % attr)
        items = top_level_items(src[start:])
        sets = [item for item in items if item.startswith('{')]
        out[arch] = tuple(regs_of(re.findall(r'"([^"]*)"', s)) for s in sets[:2])
    return out


def pass_clobbers(repo):
    """{arch: (entry clobbers, exit clobbers)} of kft_pass.cpp."""
    src = strip_comments(open(f'{repo}/scripts/llvm-plugins/kft_pass.cpp').read())
    out = {}
    for arch, var in (('x86_64', 'kft_x86_64'), ('arm64', 'kft_arm64')):
        start = src.index('kft_asm_abi %s = {' % var)
        items = top_level_items(src[src.index('{', start):])
        out[arch] = tuple(regs_of(re.findall(r'~\{(\w+)\}', strings(items[i])))
                          for i in (2, 3))
    return out


def thunk_saves(repo):
    """{(arch, hook): registers its thunk saves}; None: a C hook saving all."""
    arm = open(f'{repo}/arch/arm64/include/asm/kft.h').read()
    x86 = open(f'{repo}/arch/x86/include/asm/kft_thunk.h').read()
    saves = {}
    for hook in ('enter', 'exit'):
        m = re.search(r'#define kft_arch_%s_thunk\(.*?\n(.*?)\n\n' % hook,
                      arm, re.S)
        body = m.group(1)
        regs = set()
        for ins in re.findall(r'\bst[rp]\s+([^\[]*)\[', body):
            regs |= {r.strip() for r in ins.split(',') if r.strip()}
        saves[('arm64', hook)] = regs
    m = re.search(r'#define kft_x86_exit_thunk\(.*?\n(.*?)\n\n', x86 + '\n\n',
                  re.S)
    saves[('x86_64', 'exit')] = set(re.findall(r'push\s+%(\w+)', m.group(1)))
    # x86_64's entry hook is C, __no_caller_saved_registers: it saves
    # every register it changes itself.
    saves[('x86_64', 'enter')] = None
    return saves


def show(sets):
    return ' / '.join(' '.join(sorted(s)) for s in sets)


def main():
    repo = sys.argv[1]
    saves = thunk_saves(repo)
    results = []
    for tool, clobbers in (('GCC plugin', plugin_clobbers(repo)),
                           ('LLVM pass', pass_clobbers(repo))):
        for arch in ('x86_64', 'arm64'):
            for i, hook in enumerate(('enter', 'exit')):
                clob = clobbers[arch][i]
                saved = saves[(arch, hook)]
                what = f'{tool} {arch} {hook}'
                if saved is None:
                    results.append((True, f'{what}: the hook saves what it changes (C, no_caller_saved_registers); the asm clobbers {" ".join(sorted(clob))}'))
                    continue
                lost = CALLER_SAVED[arch] - clob - saved
                both = clob & saved
                results.append((not lost,
                                f'{what}: every caller-saved register is clobbered by the asm or saved by the thunk'
                                + (f' (neither: {" ".join(sorted(lost))})' if lost else '')))
                results.append((not both,
                                f'{what}: the thunk saves no register the asm clobbers'
                                + (f' (both: {" ".join(sorted(both))})' if both else '')))
    p, l = plugin_clobbers(repo), pass_clobbers(repo)
    for arch in ('x86_64', 'arm64'):
        same = p[arch] == l[arch]
        results.append((same, f'{arch}: the GCC plugin and the LLVM pass clobber the same registers'
                        + ('' if same else ' (plugin %s, pass %s)' % (show(p[arch]), show(l[arch])))))
    for good, text in results:
        print(('ok ' if good else 'not ok ') + text)
    return 0


if __name__ == '__main__':
    sys.exit(main())
