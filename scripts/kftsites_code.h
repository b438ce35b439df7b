/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kftsites' model of an object's code (kftsites_code.c), which --reach
 * (kftsites_reach.c) and --bounded (kftsites_bounded.c) ask questions of:
 * its executable sections and their branch relocations; its functions and
 * the code no symbol names that a branch goes to (nodes); arm's mapping
 * symbols; the tables that patch code (alternatives, static branches and,
 * for --bounded, the exception and bug tables); and a walk over a range's
 * instructions with the architecture's decoder.
 */
#ifndef _SCRIPTS_KFTSITES_CODE_H
#define _SCRIPTS_KFTSITES_CODE_H

#include "kftsites_shared.h"

#define NO_NODE		SIZE_MAX

/* A relocation that gives a branch its target. */
struct rel_ent {
	uint64_t off;
	int64_t addend;
	size_t sym;
	unsigned int type;
};

/* An executable section: its bytes and its branch relocations, by offset. */
struct rsec {
	const uint8_t *bytes;
	uint64_t size;
	struct rel_ent *rels;
	size_t nrels;
	bool exec;
};

/*
 * A function, or code no symbol names that a branch goes to (a label: it
 * runs to its first jump or return).  falls: it runs on into the next.
 */
struct node {
	size_t shndx, parent, sym;
	uint64_t start, end;
	char *label;		/* the name of code without a symbol */
	bool thumb, falls, hook, allowed, stop, seen, instrumented, undecoded;
};

/* Mapping symbols: where code (arm: in which set) or data begins. */
struct mapsym {
	size_t shndx;
	uint64_t off;
	char kind;		/* 'a', 't', 'x' (code) or 'd' (data) */
};

/*
 * An alternative: code patched over [orig, orig + ...) from [repl, repl +
 * len).  A static branch: a jump patched at orig, to repl.
 */
struct alt {
	size_t orig_sec, repl_sec;
	uint64_t orig, repl, len;
};

struct code {
	struct object *o;
	struct rsec *secs;
	struct node *nodes;	/* [0, nsorted): symbols, by section and start */
	size_t nnodes, nsorted, cap;
	struct mapsym *map;
	size_t nmap;
	struct alt *alts, *jumps, *extab, *bugs;
	size_t nalts, njumps, nextab, nbugs;
	size_t *queue;		/* --reach's walk */
	size_t nqueue, qcap;
	const struct reach_opts *opt;
	bool msb;		/* arm: big-endian code */
	int fd;			/* the object's, open while the model is */
};

/* What decoding a node finds: where it branches to. */
struct edges {
	size_t node;
	size_t *v;
	size_t n, cap;
	uint64_t skip_lo, skip_hi;	/* in skip_sec: not a branch out */
	size_t skip_sec;
	bool hook, oom;
};

/* What walk() hands each instruction to: -1 to give up. */
typedef int (*insn_fn)(struct code *r, size_t shndx, uint64_t off,
		       const struct insn *in, void *arg);

/*
 * An object opened for its code (path; opt: what to read), its symbols
 * and the model indexed: 0, or -1 having said why.  code_close() frees
 * both, whichever.
 */
int code_open(struct code *r, struct object *o, const char *path,
	      const struct reach_opts *opt);
void code_close(struct code *r);
/* The model alone freed: for one built on an object open elsewhere. */
void code_free(struct code *r);

/* Is symbol ndx one of the hooks (global, by name)? */
bool is_hook(const struct object *o, size_t ndx);

const char *sym_name(const struct object *o, size_t ndx);

const char *node_name(const struct code *r, const struct node *n);

/* The first node after (shndx, off) among the symbols'. */
size_t node_after(const struct code *r, size_t shndx, uint64_t off);

/*
 * Decode [start, end) of section shndx, each instruction to fn (if any),
 * which returns -1 to give up.  thumb: arm's instruction set at start
 * where no mapping symbol says.  open: stop after the first instruction
 * that ends straight-line code.  *stop: where decoding stopped; *term:
 * whether the last instruction ended straight-line code; *bad: whether it
 * stopped at bytes x86_64 cannot decode.  -1 if fn gave up.
 */
int walk(struct code *r, size_t shndx, uint64_t start, uint64_t end,
	 bool thumb, bool open, insn_fn fn, void *arg, uint64_t *stop,
	 bool *term, bool *bad);

/*
 * The node holding code at (shndx, off): a symbol's, or one made for code
 * no symbol names.  NO_NODE if there is none (not code) or no memory.
 */
size_t node_at(struct code *r, size_t shndx, uint64_t off, bool thumb,
	       bool *oom);

/* The branch relocation at off in section shndx, or NULL. */
const struct rel_ent *rel_at(const struct code *r, size_t shndx,
			     uint64_t off);

/*
 * Where a branch relocation of code in the object goes: false if its
 * symbol is not defined here.  disp: the branch's displacement from its
 * relocation's symbol (the addend, as the architecture counts it).
 */
bool rel_target(const struct code *r, const struct rel_ent *rel,
		int64_t disp, size_t *shndx, uint64_t *off, bool *thumb);

/* The first of n alternatives or static branches at or after (shndx, off). */
size_t alt_from(const struct alt *v, size_t n, size_t shndx,
		uint64_t off);

/* Decode node u: its branches out (e->v), and whether it calls a hook. */
int decode_node(struct code *r, size_t u, struct edges *e);

/* The sections, their branch relocations, the functions and mapping symbols. */
int code_index(struct code *r);

/*
 * The alternatives (x86_64, arm64: .altinstructions; riscv:
 * .alternative), and the static branches (__jump_table: where each
 * patched jump goes, in its function, or in another section).
 */
int code_tables(struct code *r);

/* --insns: every function's instructions, as decoded. */
void code_insns(struct code *r);


#endif /* _SCRIPTS_KFTSITES_CODE_H */
