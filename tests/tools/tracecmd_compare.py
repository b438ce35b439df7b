#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Compare kd -c -f etp's call trees with trace-cmd report's function graph.

usage: tracecmd_compare.py [--entries] [--original] KD_TREE REPORT

KD_TREE: kd -c -f etp LOG; REPORT: trace-cmd report -l -t -O fgraph:tailprint
-O fgraph:depth -i FILE.  Each call becomes (pid, path of names from its
tree's root, duration): kd's pid -1 (interrupt context) is trace-cmd's
hardirq flag (the softirq flag keeps the pid: softirqs an interrupt runs
logged with the task's); a duration of -1 or -2 (no exit) is a call with no
exit event.  --entries: each call's entry time too (the times are the log's:
--raw, or a log without a hook cost).  The two lists must be the same,
call for call, in the order of their entries (trees by root, depth first).
--original: the log is in the original KFT's format, whose interrupts' first
calls carry the task's pid (kd -c prints it; trace-cmd the hardirq flag).
Exit status 0 if they are, 1 with the differences if not.
"""
import re
import sys

ROW = re.compile(r'^\s*(\S+)\s+(\S+)\s+(\S+) ((?:[|!]  )*)(.*)$')
LINE = re.compile(r'^\s*(.*)-(-?\d+)\s+(\d+)(\S{5,6})\s+(\d+\.\d+): '
                  r'(funcgraph_entry|funcgraph_exit|print):\s*(.*)$')
ENTRY = re.compile(r'^(?:[+!#$@*] )?\s*(?:(\d+(?:\.\d+)?) us\s*)?\|  ( *)(.*)'
                   r'\(\)(;| \{) \((\d+)\)$')
EXIT = re.compile(r'^(?:[+!#$@*] )?\s*(\d+(?:\.\d+)?) us\s*\|  ( *)\} /\* (.*) \*/ \((\d+)\)$')


def us(s):
    return '%.3f' % float(s)


def kd_trees(path, legacy):
    """kd -c's calls, tree by tree."""
    trees, stack, base = [], [], 0
    for line in open(path, encoding='utf-8', errors='surrogateescape'):
        m = ROW.match(line.rstrip('\n'))
        if not m:
            continue
        try:
            entry = float(m.group(1))
        except ValueError:
            continue
        # (--subtree: a tree's root may be deeper than 0.)
        depth = len(m.group(4)) // 3
        if not trees or depth <= base:
            trees.append([])
            base = depth
        depth -= base
        del stack[depth:]
        stack.append(m.group(5))
        dur = 'open' if float(m.group(2)) < 0 else us(m.group(2))
        pid = int(m.group(3))
        # The original's logs give an interrupt's first call the task's
        # pid, its callees -1 (kd_analyse.c): the interrupt's all the same.
        if legacy and depth == 1 and pid == -1 and len(trees[-1]) == 1:
            r = trees[-1][0]
            trees[-1][0] = (-1,) + r[1:]
        trees[-1].append((pid, tuple(stack), dur, '%.3f' % entry))
    # In the original's logs, a -1 call kd puts in a task's tree (calls
    # under spin_lock_bh(), softirqs a task runs) is the task's to
    # trace-cmd.
    for tree in trees if legacy else ():
        if tree and tree[0][0] != -1:
            tree[:] = [(tree[0][0],) + r[1:] if r[0] == -1 else r for r in tree]
    return trees


def report_trees(path):
    """trace-cmd report's calls, tree by tree.  A call's caller is the
    latest entered call still open one level up in its context (its task,
    or its CPU's interrupts); an exit is the latest entered open call of
    its name at its depth.  Calls whose exit never comes stay open."""
    trees, contexts = [], {}
    for line in open(path, encoding='utf-8', errors='surrogateescape'):
        m = LINE.match(line.rstrip('\n'))
        if not m or m.group(6) == 'print':
            continue
        pid, cpu, flags, ts, kind, rest = (int(m.group(2)), int(m.group(3)),
                                           m.group(4), m.group(5), m.group(6),
                                           m.group(7))
        irq = 'h' in flags
        key = ('irq', cpu) if irq or 's' in flags else ('task', pid)
        opened = contexts.setdefault(key, {})	# depth: open calls, latest last
        if kind == 'funcgraph_entry':
            e = ENTRY.match(rest)
            if not e:
                raise SystemExit('cannot read: ' + line)
            depth = int(e.group(5))
            if depth and not opened.get(depth - 1):
                raise SystemExit('depth %d with no open call above: %s' % (depth, line))
            parent = opened[depth - 1][-1] if depth else None
            names = (parent['names'] if parent else ()) + (e.group(3),)
            call = {'names': names,
                    'call': [-1 if irq else pid, names, 'open', '%.3f' % (float(ts) * 1e6)]}
            if parent:
                call['tree'] = parent['tree']
            else:
                trees.append([])
                call['tree'] = trees[-1]
            call['tree'].append(call['call'])
            if e.group(4) == ';':
                call['call'][2] = us(e.group(1))
            else:
                opened.setdefault(depth, []).append(call)
        else:
            x = EXIT.match(rest)
            if not x:
                raise SystemExit('cannot read: ' + line)
            depth = int(x.group(4))
            cands = opened.get(depth, [])
            for k in range(len(cands) - 1, -1, -1):
                if cands[k]['names'][-1] == x.group(3):
                    cands.pop(k)['call'][2] = us(x.group(1))
                    break
            else:
                raise SystemExit('exit of %s at depth %d: not an open call\n%s' %
                                 (x.group(3), depth, line))
    return [[tuple(c) for c in t] for t in trees]


def main():
    args = sys.argv[1:]
    entries = legacy = False
    while args and args[0].startswith('--'):
        entries |= args[0] == '--entries'
        legacy |= args[0] == '--original'
        args = args[1:]
    n = 3 + bool(entries)
    # Trees are printed by kd root by root, by trace-cmd interleaved in
    # time: compared as sorted lists of trees, each call for call.
    ta = sorted(tuple(c[:n] for c in t) for t in kd_trees(args[0], legacy))
    tb = sorted(tuple(c[:n] for c in t) for t in report_trees(args[1]))
    if not ta:
        print('kd printed no calls', file=sys.stderr)
        return 1
    if ta != tb:
        sa, sb = set(ta), set(tb)
        for t in sorted(sa - sb):
            print('only kd -c:', t, file=sys.stderr)
        for t in sorted(sb - sa):
            print('only trace-cmd:', t, file=sys.stderr)
        if sa == sb:
            print('the same trees, not as many times each', file=sys.stderr)
        print('%d trees against %d' % (len(ta), len(tb)), file=sys.stderr)
        return 1
    print('%d calls in %d trees alike' % (sum(map(len, ta)), len(ta)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
