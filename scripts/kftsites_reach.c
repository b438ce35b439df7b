// SPDX-License-Identifier: GPL-2.0
/*
 * kftsites --reach: can the hooks call instrumented code?
 *
 * The hooks, __cyg_profile_func_enter() and __cyg_profile_func_exit()
 * (kernel/kft.c), must call nothing that calls them.  Run on vmlinux.o,
 * this follows every direct call and jump from the hooks, through every
 * function it reaches that is not instrumented, and fails naming the path
 * to each function reached that calls a hook: one built with the
 * instrumentation.
 *
 * A branch goes where its relocation says, if it has one (a call to
 * another object, or to a global function); else where its displacement
 * says (a call within an object's section, to a static function, which the
 * assembler resolved and left no relocation for).  So each function
 * reached is decoded: x86_64 by instruction length, arm64 and riscv64 by
 * their encodings, arm in the ARM and Thumb instruction sets as its mapping
 * symbols say ($a, $t), skipping data ($d, on every machine).  The
 * replacement code of the alternatives patched into a function reached
 * (.altinstructions, riscv's .alternative) is decoded with it, and its
 * static branches (__jump_table) go where they jump once patched.  A
 * static call goes to its trampoline, which jumps to its initial target:
 * followed too.  Calls through pointers are not followed.  A function
 * without a size, or one cut short by the next symbol, runs on into the
 * next.
 *
 * --bounded (further down) asks of the same model of the code which
 * functions run a bounded number of instructions.
 *
 * --stop FUNC: FUNC is checked, but what it calls is not followed: where
 * the hooks hand over to code that runs when it cannot harm them (the
 * kernel's: irq_work_queue() at the end of a run, the scheduler once a
 * hook has done its work).  --allow FUNC: FUNC is neither checked nor
 * followed.
 *
 * Uses the object (kftsites_elf.c) and the decoders (kftsites_x86.c,
 * _arm64.c, _riscv.c, _arm.c); called by kftsites.c's command line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kftsites_shared.h"

#ifndef R_AARCH64_CONDBR19
#define R_AARCH64_CONDBR19	280
#endif
#ifndef R_AARCH64_TSTBR14
#define R_AARCH64_TSTBR14	279
#endif
#ifndef R_ARM_THM_JUMP19
#define R_ARM_THM_JUMP19	51
#endif
#define R_ARM_THM_JUMP11_	102	/* glibc: R_ARM_THM_PC11 */
#define R_ARM_THM_JUMP8_	103	/* glibc: R_ARM_THM_PC9 */
#ifndef R_RISCV_BRANCH
#define R_RISCV_BRANCH		16
#endif
#ifndef R_RISCV_JAL
#define R_RISCV_JAL		17
#endif
#ifndef R_RISCV_RVC_BRANCH
#define R_RISCV_RVC_BRANCH	44
#endif
#ifndef R_RISCV_RVC_JUMP
#define R_RISCV_RVC_JUMP	45
#endif

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

struct reach {
	struct object *o;
	struct rsec *secs;
	struct node *nodes;	/* [0, nsorted): symbols, by section and start */
	size_t nnodes, nsorted, cap;
	struct mapsym *map;
	size_t nmap;
	struct alt *alts, *jumps, *extab, *bugs;
	size_t nalts, njumps, nextab, nbugs;
	size_t *queue;
	size_t nqueue, qcap;
	const struct reach_opts *opt;
	bool msb;		/* arm: big-endian code */
};

/* Does a relocation of this type give a branch its target? */
static bool branch_type(const struct object *o, unsigned int t)
{
	switch (o->eh.e_machine) {
	case EM_X86_64:		/* and data: only at a branch's rel32 */
		return t == R_X86_64_PLT32 || t == R_X86_64_PC32;
	case EM_AARCH64:
		return t == R_AARCH64_CALL26 || t == R_AARCH64_JUMP26 ||
		       t == R_AARCH64_CONDBR19 || t == R_AARCH64_TSTBR14;
	case EM_ARM:
		return t == R_ARM_PC24 || t == R_ARM_CALL || t == R_ARM_JUMP24 ||
		       t == R_ARM_PLT32 || t == R_ARM_THM_CALL ||
		       t == R_ARM_THM_JUMP24 || t == R_ARM_THM_JUMP19 ||
		       t == R_ARM_THM_JUMP11_ || t == R_ARM_THM_JUMP8_;
	case EM_RISCV:
		return t == R_RISCV_CALL || t == R_RISCV_CALL_PLT ||
		       t == R_RISCV_JAL || t == R_RISCV_BRANCH ||
		       t == R_RISCV_RVC_JUMP || t == R_RISCV_RVC_BRANCH;
	}
	return false;
}

static bool arm_thumb_type(unsigned int t)
{
	return t == R_ARM_THM_CALL || t == R_ARM_THM_JUMP24 ||
	       t == R_ARM_THM_JUMP19 || t == R_ARM_THM_JUMP11_ ||
	       t == R_ARM_THM_JUMP8_;
}

/* Is symbol ndx one of the hooks (global, by name)? */
static bool is_hook(const struct object *o, size_t ndx)
{
	return hook_of(o, ndx) != NR_HOOKS;
}

static bool listed(char *const *names, int n, const char *name)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return true;
	return false;
}

static const char *sym_name(const struct object *o, size_t ndx)
{
	GElf_Sym sym;
	const char *name;

	if (!gelf_getsym(o->syms, ndx, &sym))
		return "?";
	name = elf_strptr(o->elf, o->strtab_ndx, sym.st_name);
	return name ? name : "?";
}

static const char *node_name(const struct reach *r, const struct node *n)
{
	return n->label ? n->label : sym_name(r->o, n->sym);
}

/* The first node after (shndx, off) among the symbols'. */
static size_t node_after(const struct reach *r, size_t shndx, uint64_t off)
{
	size_t lo = 0, hi = r->nsorted;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct node *n = &r->nodes[mid];

		if (n->shndx < shndx || (n->shndx == shndx && n->start <= off))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Where straight-line code from off in shndx may run to: the next symbol. */
static uint64_t code_limit(const struct reach *r, size_t shndx, uint64_t off)
{
	size_t k = node_after(r, shndx, off);

	if (k < r->nsorted && r->nodes[k].shndx == shndx)
		return r->nodes[k].start;
	return r->secs[shndx].size;
}

typedef int (*insn_fn)(struct reach *r, size_t shndx, uint64_t off,
		       const struct insn *in, void *arg);

/* The first mapping symbol after (shndx, off). */
static size_t map_after(const struct reach *r, size_t shndx, uint64_t off)
{
	size_t lo = 0, hi = r->nmap;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct mapsym *m = &r->map[mid];

		if (m->shndx < shndx || (m->shndx == shndx && m->off <= off))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Decode [start, end) of section shndx, each instruction to fn (if any),
 * which returns -1 to give up.  thumb: arm's instruction set at start
 * where no mapping symbol says.  open: stop after the first instruction
 * that ends straight-line code.  *stop: where decoding stopped; *term:
 * whether the last instruction ended straight-line code; *bad: whether it
 * stopped at bytes x86_64 cannot decode.  -1 if fn gave up.
 */
static int walk(struct reach *r, size_t shndx, uint64_t start, uint64_t end,
		bool thumb, bool open, insn_fn fn, void *arg, uint64_t *stop,
		bool *term, bool *bad)
{
	const struct rsec *s = &r->secs[shndx];
	struct dstate st = { 0 };
	size_t k = map_after(r, shndx, start);
	char mode = thumb ? 't' : 'a';
	uint64_t off = start;

	*term = *bad = false;
	if (end > s->size)
		end = s->size;
	if (k && r->map[k - 1].shndx == shndx)
		mode = r->map[k - 1].kind;
	while (off < end) {
		struct insn in = { 0 };
		const uint8_t *p = s->bytes + off;
		uint64_t n = end - off;
		int err = 0;

		for (; k < r->nmap && r->map[k].shndx == shndx &&
		       r->map[k].off <= off; k++)
			mode = r->map[k].kind;
		if (mode == 'd') {		/* data, to the next mapping symbol */
			off = k < r->nmap && r->map[k].shndx == shndx &&
			      r->map[k].off < end ? r->map[k].off : end;
			*term = true;
			continue;
		}
		switch (r->o->eh.e_machine) {
		case EM_X86_64:
			err = x86_insn(p, n, off, &in);
			*bad = err < 0;
			break;
		case EM_AARCH64:
			if (n < 4 || off % 4)
				err = -1;
			else
				a64_insn(p, off, &in);
			break;
		case EM_RISCV:
			err = rv_insn(p, n, off, &st, &in);
			break;
		case EM_ARM:
			err = arm_insn(p, n, off, mode == 't', r->msb, &in);
			break;
		}
		if (err)
			break;
		if (fn && fn(r, shndx, off, &in, arg))
			return -1;
		off += in.len;
		*term = in.term;
		if (open && in.term)
			break;
	}
	*stop = off;
	return 0;
}

/* Add a node for code at (shndx, off) without a symbol: its extent found. */
static size_t add_label_node(struct reach *r, size_t shndx, uint64_t off,
			     bool thumb)
{
	struct node *n;
	GElf_Shdr sh;
	const char *sec = NULL;
	uint64_t limit = code_limit(r, shndx, off), stop;
	bool term, bad;
	char buf[256];

	if (r->nnodes == r->cap) {
		size_t cap = r->cap ? 2 * r->cap : 64;
		struct node *v = realloc(r->nodes, cap * sizeof(*v));

		if (!v)
			return NO_NODE;
		r->nodes = v;
		r->cap = cap;
	}
	if (walk(r, shndx, off, limit, thumb, true, NULL, NULL, &stop, &term, &bad))
		return NO_NODE;
	if (gelf_getshdr(elf_getscn(r->o->elf, shndx), &sh))
		sec = elf_strptr(r->o->elf, r->o->shstrndx, sh.sh_name);
	snprintf(buf, sizeof(buf), "%s+0x%llx", sec ? sec : "?",
		 (unsigned long long)off);
	n = &r->nodes[r->nnodes];
	memset(n, 0, sizeof(*n));
	n->label = strdup(buf);
	if (!n->label)
		return NO_NODE;
	n->shndx = shndx;
	n->start = off;
	/* At least its first byte, so that it is found again. */
	n->end = stop > off ? stop : off + 1;
	n->thumb = thumb;
	n->falls = !term && !bad && stop == limit && limit < r->secs[shndx].size;
	n->parent = NO_NODE;
	return r->nnodes++;
}

/*
 * The node holding code at (shndx, off): a symbol's, or one made for code
 * no symbol names.  NO_NODE if there is none (not code) or no memory.
 */
static size_t node_at(struct reach *r, size_t shndx, uint64_t off, bool thumb,
		      bool *oom)
{
	size_t k;

	if (shndx >= r->o->nsecs || !r->secs[shndx].exec ||
	    off >= r->secs[shndx].size)
		return NO_NODE;
	k = node_after(r, shndx, off);
	if (k && r->nodes[k - 1].shndx == shndx && off < r->nodes[k - 1].end)
		return k - 1;
	for (k = r->nsorted; k < r->nnodes; k++)
		if (r->nodes[k].shndx == shndx && r->nodes[k].start <= off &&
		    off < r->nodes[k].end)
			return k;
	k = add_label_node(r, shndx, off, thumb);
	if (k == NO_NODE)
		*oom = true;
	return k;
}

/* The branch relocation at off in section shndx, or NULL. */
static const struct rel_ent *rel_at(const struct reach *r, size_t shndx,
				    uint64_t off)
{
	const struct rsec *s = &r->secs[shndx];
	size_t lo = 0, hi = s->nrels;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->rels[mid].off < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < s->nrels && s->rels[lo].off == off ? &s->rels[lo] : NULL;
}

/* What decoding a node finds: where it branches to. */
struct edges {
	size_t node;
	size_t *v;
	size_t n, cap;
	uint64_t skip_lo, skip_hi;	/* in skip_sec: not a branch out */
	size_t skip_sec;
	bool hook, oom;
};

/* A branch from the node to (shndx, off): hook, itself, or another. */
static int edge_to(struct reach *r, struct edges *e, size_t shndx, uint64_t off,
		   bool thumb)
{
	const struct node *u = &r->nodes[e->node];
	size_t v;

	if ((shndx == u->shndx && off >= u->start && off < u->end) ||
	    (shndx == e->skip_sec && off >= e->skip_lo && off < e->skip_hi))
		return 0;
	v = node_at(r, shndx, off, thumb, &e->oom);
	if (v == NO_NODE || v == e->node)
		return e->oom ? -1 : 0;
	if (r->nodes[v].hook) {
		e->hook = true;
		return 0;
	}
	if (e->n == e->cap) {
		size_t cap = e->cap ? 2 * e->cap : 16;
		size_t *p = realloc(e->v, cap * sizeof(*p));

		if (!p) {
			e->oom = true;
			return -1;
		}
		e->v = p;
		e->cap = cap;
	}
	e->v[e->n++] = v;
	return 0;
}

/*
 * Where a branch relocation of code in the object goes: false if its
 * symbol is not defined here.  disp: the branch's displacement from its
 * relocation's symbol (the addend, as the architecture counts it).
 */
static bool rel_target(const struct reach *r, const struct rel_ent *rel,
		       int64_t disp, size_t *shndx, uint64_t *off, bool *thumb)
{
	const struct object *o = r->o;
	GElf_Sym sym;
	uint64_t base;

	*thumb = false;
	if (!gelf_getsym(o->syms, rel->sym, &sym) || !o->sym_shndx[rel->sym])
		return false;
	base = sym.st_value;
	if (GELF_ST_TYPE(sym.st_info) != STT_SECTION) {
		if (o->eh.e_machine == EM_ARM && GELF_ST_TYPE(sym.st_info) == STT_FUNC) {
			*thumb = base & 1;
			base &= ~1ULL;
		}
		/* A call to a function is to the function, addend or not. */
		if (disp >= -8 && disp <= 8)
			disp = 0;
	}
	*shndx = o->sym_shndx[rel->sym];
	*off = base + disp;
	return true;
}

/*
 * A branch relocation: to a hook, to a symbol outside the object (not
 * followed), or to code of the object.
 */
static int edge_rel(struct reach *r, struct edges *e, const struct rel_ent *rel,
		    int64_t disp)
{
	size_t shndx;
	uint64_t off;
	bool thumb;

	if (is_hook(r->o, rel->sym)) {
		e->hook = true;
		return 0;
	}
	if (!rel_target(r, rel, disp, &shndx, &off, &thumb))
		return 0;		/* undefined: not in this object */
	return edge_to(r, e, shndx, off, thumb);
}

/* Each instruction of a node: its branches out. */
static int node_insn(struct reach *r, size_t shndx, uint64_t off,
		     const struct insn *in, void *arg)
{
	struct edges *e = arg;
	const struct rel_ent *rel;

	if (!in->branch)
		return 0;
	rel = rel_at(r, shndx, in->field);
	if (r->o->eh.e_machine == EM_X86_64) {
		/* rel32 is the instruction's last field: target = S + A + 4. */
		if (rel)
			return edge_rel(r, e, rel, rel->addend + (off + in->len - in->field));
	} else if (rel) {
		return 0;		/* its relocation: see branch_rels() */
	}
	return edge_to(r, e, shndx, in->target, in->thumb);
}

/*
 * Every branch relocation in [lo, hi) of section shndx (not x86_64's, whose
 * types data shares: those are found at the branches node_insn() decodes).
 */
static int branch_rels(struct reach *r, struct edges *e, size_t shndx,
		       uint64_t lo, uint64_t hi)
{
	const struct rsec *s = &r->secs[shndx];
	size_t a = 0, b = s->nrels;

	if (r->o->eh.e_machine == EM_X86_64)
		return 0;
	while (a < b) {
		size_t mid = a + (b - a) / 2;

		if (s->rels[mid].off < lo)
			a = mid + 1;
		else
			b = mid;
	}
	for (; a < s->nrels && s->rels[a].off < hi; a++) {
		const struct rel_ent *rel = &s->rels[a];
		int64_t disp = rel->addend;

		if (r->o->eh.e_machine == EM_ARM) {
			/* REL: the addend is the branch's own displacement. */
			struct insn in = { 0 };

			disp = 0;
			if (rel->off < s->size &&
			    !arm_insn(s->bytes + rel->off, s->size - rel->off,
				      rel->off, arm_thumb_type(rel->type), r->msb,
				      &in) && in.branch)
				disp = in.target - rel->off;
		}
		if (edge_rel(r, e, rel, disp))
			return -1;
	}
	return 0;
}

/*
 * x86_64 bytes the decoder does not know, from off to the node's end: the
 * calls and jumps with a relocation (after e8, e9 or 0f 8x), and rel32
 * ones without that land on a symbol's start.
 */
static int x86_scan(struct reach *r, struct edges *e, size_t shndx,
		    uint64_t off, uint64_t end)
{
	const struct rsec *s = &r->secs[shndx];
	uint64_t i;

	for (i = off; i + 5 <= end && i + 5 <= s->size; i++) {
		const uint8_t *p = s->bytes + i;
		unsigned int op = p[0] == 0x0f && (p[1] & 0xf0) == 0x80 ? 2 : 1;
		const struct rel_ent *rel;
		uint64_t t;
		size_t k;

		if (op == 1 && p[0] != 0xe8 && p[0] != 0xe9)
			continue;
		if (i + op + 4 > s->size)
			break;
		rel = rel_at(r, shndx, i + op);
		if (rel) {
			if (edge_rel(r, e, rel, rel->addend + 4))
				return -1;
			continue;
		}
		t = i + op + 4 + (int32_t)rd32(p + op, false);
		k = node_after(r, shndx, t);
		if (k && r->nodes[k - 1].shndx == shndx &&
		    r->nodes[k - 1].start == t && edge_to(r, e, shndx, t, false))
			return -1;
	}
	return 0;
}

/* Decode [lo, hi) of shndx for a node: its branches into e. */
static int decode_range(struct reach *r, struct edges *e, size_t shndx,
			uint64_t lo, uint64_t hi, bool thumb, bool *term)
{
	uint64_t stop;
	bool bad;

	if (walk(r, shndx, lo, hi, thumb, false, node_insn, e, &stop, term, &bad))
		return -1;
	if (bad) {
		r->nodes[e->node].undecoded = true;
		if (x86_scan(r, e, shndx, stop, hi))
			return -1;
	}
	return branch_rels(r, e, shndx, lo, hi);
}

/* The first of n alternatives or static branches at or after (shndx, off). */
static size_t alt_from(const struct alt *v, size_t n, size_t shndx,
		       uint64_t off)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct alt *a = &v[mid];

		if (a->orig_sec < shndx || (a->orig_sec == shndx && a->orig < off))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Decode node u: its branches out (e->v), and whether it calls a hook. */
static int decode_node(struct reach *r, size_t u, struct edges *e)
{
	struct node n = r->nodes[u];
	bool term = false, t;
	size_t a;

	e->node = u;
	e->n = 0;
	e->hook = false;
	e->skip_sec = 0;
	e->skip_lo = e->skip_hi = 0;
	if (decode_range(r, e, n.shndx, n.start, n.end, n.thumb, &term))
		return -1;
	for (a = alt_from(r->alts, r->nalts, n.shndx, n.start);
	     a < r->nalts && r->alts[a].orig_sec == n.shndx &&
	     r->alts[a].orig < n.end; a++) {
		const struct alt *alt = &r->alts[a];

		e->skip_sec = alt->repl_sec;
		e->skip_lo = alt->repl;
		e->skip_hi = alt->repl + alt->len;
		if (decode_range(r, e, alt->repl_sec, alt->repl,
				 alt->repl + alt->len, n.thumb, &t))
			return -1;
	}
	e->skip_sec = 0;
	e->skip_lo = e->skip_hi = 0;
	/* Its static branches' targets, when they are patched to jumps. */
	for (a = alt_from(r->jumps, r->njumps, n.shndx, n.start);
	     a < r->njumps && r->jumps[a].orig_sec == n.shndx &&
	     r->jumps[a].orig < n.end; a++)
		if (edge_to(r, e, r->jumps[a].repl_sec, r->jumps[a].repl,
			    n.thumb))
			return -1;
	/* Code that runs on past its end, into the next symbol's. */
	if (n.falls && !term && n.end < r->secs[n.shndx].size &&
	    edge_to(r, e, n.shndx, n.end, n.thumb))
		return -1;
	return 0;
}

static int by_node(const void *a, const void *b)
{
	const struct node *x = a, *y = b;

	if (x->shndx != y->shndx)
		return x->shndx < y->shndx ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	/* Of several symbols at one place, the name: see symbol_rank(). */
	if (x->parent != y->parent)
		return x->parent > y->parent ? -1 : 1;
	return x->sym < y->sym ? -1 : x->sym > y->sym;
}

static int by_mapsym(const void *a, const void *b)
{
	const struct mapsym *x = a, *y = b;

	if (x->shndx != y->shndx)
		return x->shndx < y->shndx ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

static int by_rel(const void *a, const void *b)
{
	const struct rel_ent *x = a, *y = b;

	return x->off < y->off ? -1 : x->off > y->off;
}

static int by_alt(const void *a, const void *b)
{
	const struct alt *x = a, *y = b;

	if (x->orig_sec != y->orig_sec)
		return x->orig_sec < y->orig_sec ? -1 : 1;
	return x->orig < y->orig ? -1 : x->orig > y->orig;
}

/* Which of several symbols names a place: functions, global, weak. */
static size_t symbol_rank(const GElf_Sym *sym)
{
	return (GELF_ST_TYPE(sym->st_info) == STT_FUNC ? 4 : 0) +
	       (GELF_ST_BIND(sym->st_info) == STB_GLOBAL ? 2 :
		GELF_ST_BIND(sym->st_info) == STB_WEAK ? 1 : 0);
}

/*
 * A mapping symbol's kind: where code ('a', arm's 't' for Thumb, 'x') or
 * data ('d') begins; 0 if name is not one.  riscv's "$x" may name the ISA.
 */
static char mapping_symbol(const char *name)
{
	if (name[0] != '$' || !name[1] || !strchr("atdx", name[1]) ||
	    (name[2] && name[2] != '.' && name[1] != 'x'))
		return 0;
	return name[1];
}

/* The sections, their branch relocations, the functions and mapping symbols. */
static int reach_index(struct reach *r)
{
	struct object *o = r->o;
	Elf_Scn *scn = NULL;
	size_t i, j;

	r->secs = calloc(o->nsecs + 1, sizeof(*r->secs));
	if (!r->secs)
		return obj_fail(o, "out of memory");
	while ((scn = elf_nextscn(o->elf, scn))) {
		size_t ndx = elf_ndxscn(scn);
		GElf_Shdr sh;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || ndx >= o->nsecs)
			return obj_fail(o, "bad section header");
		if (sh.sh_type != SHT_PROGBITS || !(sh.sh_flags & SHF_EXECINSTR) ||
		    !(sh.sh_flags & SHF_ALLOC))
			continue;
		d = elf_getdata(scn, NULL);
		if (!d || !d->d_buf)
			continue;
		r->secs[ndx].exec = true;
		r->secs[ndx].bytes = d->d_buf;
		r->secs[ndx].size = d->d_size;
	}
	while ((scn = elf_nextscn(o->elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;
		struct rsec *s;
		size_t n;

		if (!gelf_getshdr(scn, &sh))
			return obj_fail(o, "bad section header");
		if ((sh.sh_type != SHT_RELA && sh.sh_type != SHT_REL) ||
		    sh.sh_link != o->symtab_ndx || !sh.sh_entsize ||
		    sh.sh_info >= o->nsecs || !r->secs[sh.sh_info].exec)
			continue;
		s = &r->secs[sh.sh_info];
		d = elf_getdata(scn, NULL);
		n = sh.sh_size / sh.sh_entsize;
		for (i = 0; d && i < n; i++) {
			GElf_Rela rela;
			struct rel_ent *v;

			if (!get_reloc(d, sh.sh_type == SHT_RELA, i, &rela))
				return obj_fail(o, "bad relocation");
			if (GELF_R_SYM(rela.r_info) >= o->nsyms)
				return obj_fail(o, "relocation against a missing symbol");
			if (!branch_type(o, GELF_R_TYPE(rela.r_info)))
				continue;
			if (!(s->nrels & (s->nrels + 1)) || !s->rels) {
				/* at 0, 1, 3, 7...: grow to twice */
				v = realloc(s->rels, 2 * (s->nrels + 1) * sizeof(*v));
				if (!v)
					return obj_fail(o, "out of memory");
				s->rels = v;
			}
			s->rels[s->nrels].off = rela.r_offset;
			s->rels[s->nrels].addend = rela.r_addend;
			s->rels[s->nrels].sym = GELF_R_SYM(rela.r_info);
			s->rels[s->nrels].type = GELF_R_TYPE(rela.r_info);
			s->nrels++;
		}
	}
	for (i = 0; i < o->nsecs; i++)
		if (r->secs[i].nrels)
			qsort(r->secs[i].rels, r->secs[i].nrels,
			      sizeof(*r->secs[i].rels), by_rel);

	/* The functions (and asm labels), and arm's mapping symbols. */
	for (i = 1; i < o->nsyms; i++) {
		size_t shndx = o->sym_shndx[i];
		const char *name;
		struct node *n;
		GElf_Sym sym;
		char kind;

		if (!shndx || shndx >= o->nsecs || !r->secs[shndx].exec ||
		    !gelf_getsym(o->syms, i, &sym))
			continue;
		if (GELF_ST_TYPE(sym.st_info) != STT_FUNC &&
		    GELF_ST_TYPE(sym.st_info) != STT_NOTYPE)
			continue;
		name = elf_strptr(o->elf, o->strtab_ndx, sym.st_name);
		if (!name || !*name || !strncmp(name, ".L", 2))
			continue;
		kind = mapping_symbol(name);
		if (name[0] == '$') {
			if (kind && sym.st_value < r->secs[shndx].size) {
				if (!(r->nmap & (r->nmap + 1)) || !r->map) {
					struct mapsym *v = realloc(r->map, 2 * (r->nmap + 1) * sizeof(*v));

					if (!v)
						return obj_fail(o, "out of memory");
					r->map = v;
				}
				r->map[r->nmap].shndx = shndx;
				r->map[r->nmap].off = sym.st_value;
				r->map[r->nmap++].kind = kind;
			}
			continue;
		}
		if (r->nnodes == r->cap) {
			size_t cap = r->cap ? 2 * r->cap : 1024;
			struct node *v = realloc(r->nodes, cap * sizeof(*v));

			if (!v)
				return obj_fail(o, "out of memory");
			r->nodes = v;
			r->cap = cap;
		}
		n = &r->nodes[r->nnodes];
		memset(n, 0, sizeof(*n));
		n->shndx = shndx;
		n->sym = i;
		n->start = sym.st_value;
		if (o->eh.e_machine == EM_ARM && GELF_ST_TYPE(sym.st_info) == STT_FUNC) {
			n->thumb = n->start & 1;
			n->start &= ~1ULL;
		}
		if (n->start >= r->secs[shndx].size)
			continue;
		n->end = sym.st_size ? n->start + sym.st_size : 0;
		n->hook = is_hook(o, i);
		n->allowed = listed(r->opt->allow, r->opt->nallow, name);
		n->stop = listed(r->opt->stop, r->opt->nstop, name);
		n->parent = symbol_rank(&sym);		/* for sorting only */
		r->nnodes++;
	}
	if (r->nnodes)
		qsort(r->nodes, r->nnodes, sizeof(*r->nodes), by_node);
	if (r->nmap)
		qsort(r->map, r->nmap, sizeof(*r->map), by_mapsym);
	/* One node a place, named by its best symbol; its extent. */
	for (i = j = 0; i < r->nnodes; i++) {
		struct node *n = &r->nodes[i];

		if (j && r->nodes[j - 1].shndx == n->shndx &&
		    r->nodes[j - 1].start == n->start) {
			struct node *k = &r->nodes[j - 1];

			k->hook |= n->hook;
			k->allowed |= n->allowed;
			k->stop |= n->stop;
			k->thumb |= n->thumb;
			if (n->end > k->end)
				k->end = n->end;
			continue;
		}
		r->nodes[j++] = *n;
	}
	r->nnodes = r->nsorted = j;
	for (i = 0; i < r->nsorted; i++) {
		struct node *n = &r->nodes[i];
		uint64_t limit = i + 1 < r->nsorted && r->nodes[i + 1].shndx == n->shndx ?
				 r->nodes[i + 1].start : r->secs[n->shndx].size;

		n->parent = NO_NODE;
		if (!n->end || n->end > limit) {
			n->falls = true;	/* no size, or cut by the next */
			n->end = limit;
		}
	}
	return 0;
}

#ifndef R_RISCV_32_PCREL
#define R_RISCV_32_PCREL	57
#endif

/*
 * A table of entries of entsize bytes, each relocated at 0 (code) and 4
 * (other code: an alternative's replacement, a static branch's target):
 * their places, by the first, in *out.  len_off: where an entry has the
 * length of its other code (an alternative's replacement; riscv: a
 * relocation pair, for linker relaxation may change it), else 0.  arm's
 * REL keeps the addend in the table.  one_end: the code alone is wanted
 * (entsize 4: every reference to code, whatever the entries' layout).
 */
static int read_table(struct reach *r, const char *name, size_t entsize,
		      size_t len_off, bool one_end, struct alt **out,
		      size_t *nout)
{
	struct object *o = r->o;
	unsigned int m = o->eh.e_machine;
	Elf_Scn *scn = NULL, *tab = NULL;
	Elf_Data *td = NULL;
	size_t tabndx = 0, i, n, nent;
	struct alt *v;

	while ((scn = elf_nextscn(o->elf, scn))) {
		const char *s = sec_name(o, scn);

		if (s && !strcmp(s, name)) {
			tab = scn;
			tabndx = elf_ndxscn(scn);
			td = elf_getdata(scn, NULL);
		}
	}
	if (!tab || !td || !td->d_buf || td->d_size < entsize)
		return 0;
	nent = td->d_size / entsize;
	v = calloc(nent, sizeof(*v));
	if (!v)
		return obj_fail(o, "out of memory");
	*out = v;
	/* The lengths as the data has them; relocations may say otherwise. */
	for (i = 0; len_off && i < nent; i++) {
		const uint8_t *p = (const uint8_t *)td->d_buf + i * entsize + len_off;

		v[i].len = m == EM_RISCV ? rd16(p, false) : p[0];
	}
	while ((scn = elf_nextscn(o->elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) ||
		    (sh.sh_type != SHT_RELA && sh.sh_type != SHT_REL) ||
		    sh.sh_info != tabndx || sh.sh_link != o->symtab_ndx ||
		    !sh.sh_entsize)
			continue;
		d = elf_getdata(scn, NULL);
		n = sh.sh_size / sh.sh_entsize;
		for (i = 0; d && i < n; i++) {
			GElf_Rela rela;
			GElf_Sym sym;
			size_t sym_ndx, shndx, at, e;
			unsigned int t;
			struct alt *a;
			uint64_t val;

			if (!get_reloc(d, sh.sh_type == SHT_RELA, i, &rela))
				return obj_fail(o, "bad relocation");
			sym_ndx = GELF_R_SYM(rela.r_info);
			t = GELF_R_TYPE(rela.r_info);
			e = rela.r_offset / entsize;
			at = rela.r_offset % entsize;
			if (sym_ndx >= o->nsyms || e >= nent ||
			    !gelf_getsym(o->syms, sym_ndx, &sym))
				continue;
			a = &v[e];
			shndx = o->sym_shndx[sym_ndx];
			if (sh.sh_type == SHT_REL && rela.r_offset + 4 <= td->d_size)
				rela.r_addend = rd32((const uint8_t *)td->d_buf +
						     rela.r_offset, r->msb);
			val = sym.st_value + rela.r_addend;
			if (m == EM_RISCV && len_off && at == len_off &&
			    (t == R_RISCV_ADD16 || t == R_RISCV_SUB16)) {
				if (t == R_RISCV_ADD16)	/* the end less the start */
					a->len += val;
				else
					a->len -= val;
				continue;
			}
			if ((at != 0 && at != 4) || !shndx || shndx >= o->nsecs ||
			    !r->secs[shndx].exec ||
			    !(m == EM_X86_64 ? t == R_X86_64_PC32 :
			      m == EM_AARCH64 ? t == R_AARCH64_PREL32 :
			      m == EM_ARM ? t == R_ARM_ABS32 :
			      t == R_RISCV_ADD32 || t == R_RISCV_32_PCREL))
				continue;
			if (m == EM_ARM && GELF_ST_TYPE(sym.st_info) == STT_FUNC)
				val &= ~1ULL;
			if (at == 0) {
				a->orig_sec = shndx;
				a->orig = val;
			} else {
				a->repl_sec = shndx;
				a->repl = val;
			}
		}
	}
	/* Both ends known (or the one): else dropped. */
	for (i = n = 0; i < nent; i++)
		if (v[i].orig_sec && (one_end || (v[i].repl_sec &&
		    v[i].len <= r->secs[v[i].repl_sec].size)))
			v[n++] = v[i];
	*nout = n;
	if (n)
		qsort(v, n, sizeof(*v), by_alt);
	return 0;
}

/*
 * The alternatives (x86_64, arm64: .altinstructions; riscv:
 * .alternative), and the static branches (__jump_table: where each
 * patched jump goes, in its function, or in another section).
 */
static int reach_tables(struct reach *r)
{
	unsigned int m = r->o->eh.e_machine;

	if (m != EM_ARM &&
	    read_table(r, m == EM_RISCV ? ".alternative" : ".altinstructions",
		       m == EM_X86_64 ? 14 : m == EM_AARCH64 ? 12 : 16,
		       m == EM_X86_64 ? 13 : m == EM_AARCH64 ? 11 : 10,
		       false, &r->alts, &r->nalts))
		return -1;
	/*
	 * --bounded: the accesses that may fault, and the traps of BUG() and
	 * WARN() (struct bug_entry, whose layout changes with the kernel:
	 * each reference to code is one).
	 */
	if (r->opt->bounded &&
	    (read_table(r, "__ex_table", m == EM_ARM ? 8 : 12, 0, false,
			&r->extab, &r->nextab) ||
	     read_table(r, "__bug_table", 4, 0, true, &r->bugs, &r->nbugs)))
		return -1;
	return read_table(r, "__jump_table", r->o->is64 ? 16 : 12, 0, false,
			  &r->jumps, &r->njumps);
}

/* A reached node's path from the hook it was reached from. */
static void print_path(const struct reach *r, size_t v, FILE *f)
{
	size_t path[64], n = 0, u;

	for (u = v; u != NO_NODE && n < ARRAY_SIZE(path); u = r->nodes[u].parent)
		path[n++] = u;
	if (u != NO_NODE)
		fprintf(f, "... -> ");
	while (n--)
		fprintf(f, "%s%s", node_name(r, &r->nodes[path[n]]), n ? " -> " : "");
}

static int enqueue(struct reach *r, size_t v, size_t parent)
{
	if (r->nodes[v].seen)
		return 0;
	if (r->nqueue == r->qcap) {
		size_t cap = r->qcap ? 2 * r->qcap : 256;
		size_t *q = realloc(r->queue, cap * sizeof(*q));

		if (!q)
			return -1;
		r->queue = q;
		r->qcap = cap;
	}
	r->nodes[v].seen = true;
	r->nodes[v].parent = parent;
	r->queue[r->nqueue++] = v;
	return 0;
}

/* The breadth-first walk from the hooks: 0 clean, 1 instrumented reached. */
static int reach_walk(struct reach *r)
{
	struct edges e = { 0 };
	size_t i, q, nbad = 0, nallowed = 0, nstopped = 0, nundecoded = 0;
	int ret = -1;

	for (i = 0; i < r->nsorted; i++)
		if (r->nodes[i].hook && enqueue(r, i, NO_NODE))
			goto oom;
	if (!r->nqueue) {
		fprintf(stderr, "kftsites: %s: defines neither %s() nor %s()\n",
			r->o->path, hook_name[ENTER], hook_name[EXIT]);
		return -1;
	}
	for (q = 0; q < r->nqueue; q++) {
		size_t u = r->queue[q];

		if (r->nodes[u].allowed) {
			nallowed++;
			continue;
		}
		if (decode_node(r, u, &e))
			goto oom;
		if (r->nodes[u].undecoded)
			nundecoded++;
		if (e.hook) {
			r->nodes[u].instrumented = true;
			nbad++;
			continue;
		}
		if (r->nodes[u].stop) {
			nstopped++;
			continue;
		}
		for (i = 0; i < e.n; i++)
			if (enqueue(r, e.v[i], u))
				goto oom;
	}
	if (r->opt->verbose) {
		printf("%s: the hooks reach %zu functions: %zu instrumented, %zu stopped at, %zu allowed%s\n",
		       r->o->path, r->nqueue, nbad, nstopped, nallowed,
		       nundecoded ? " (some not decoded: marked ?)" : "");
		for (q = 0; q < r->nqueue; q++) {
			const struct node *n = &r->nodes[r->queue[q]];

			printf("  %s%s%s%s%s", node_name(r, n),
			       n->instrumented ? " (instrumented)" : "",
			       n->allowed ? " (allowed)" : "",
			       n->stop && !n->instrumented ? " (stop)" : "",
			       n->undecoded ? " ?" : "");
			if (n->parent != NO_NODE)
				printf(" <- %s", node_name(r, &r->nodes[n->parent]));
			putchar('\n');
		}
	}
	/* One line each, whole, for the build's log. */
	for (q = 0; q < r->nqueue; q++) {
		const struct node *n = &r->nodes[r->queue[q]];

		if (!n->instrumented)
			continue;
		fprintf(stderr, "kftsites: %s: error: the hooks reach %s, which calls them: ",
			r->o->path, node_name(r, n));
		print_path(r, r->queue[q], stderr);
		fputc('\n', stderr);
	}
	ret = nbad ? 1 : 0;
	free(e.v);
	return ret;
oom:
	free(e.v);
	return obj_fail(r->o, "out of memory");
}

/*
 * --insns: every function's instructions as decoded, "SECTION OFFSET
 * LENGTH", and a direct branch's target as its bytes give it.
 */
static int insn_print(struct reach *r, size_t shndx, uint64_t off,
		      const struct insn *in, void *arg)
{
	(void)r;
	(void)shndx;
	printf("%s %llx %llx", (const char *)arg, (unsigned long long)off,
	       (unsigned long long)in->len);
	if (in->branch)
		printf(" %llx", (unsigned long long)in->target);
	putchar('\n');
	return 0;
}

static void reach_insns(struct reach *r)
{
	size_t i;

	for (i = 0; i < r->nsorted; i++) {
		const struct node *n = &r->nodes[i];
		GElf_Shdr sh;
		const char *sec = NULL;
		uint64_t stop;
		bool term, bad;

		if (gelf_getshdr(elf_getscn(r->o->elf, n->shndx), &sh))
			sec = elf_strptr(r->o->elf, r->o->shstrndx, sh.sh_name);
		walk(r, n->shndx, n->start, n->end, n->thumb, false, insn_print,
		     (void *)(sec ? sec : "?"), &stop, &term, &bad);
		if (bad)
			printf("%s %llx ?\n", sec ? sec : "?", (unsigned long long)stop);
	}
}

/*
 * --bounded: which functions that call the hooks run a bounded number of
 * instructions, each time they are called - all a run with a time filter
 * needs to know to leave their hook calls NOPs when the bound is below
 * its threshold.  A function is bounded if, of its instructions that can
 * run (from its entry, falling through and by its branches):
 *  - no path runs one twice (no loop), and no branch goes through a
 *    register;
 *  - none waits or traps (struct insn's waits), but for the traps of
 *    BUG() and WARN() (__bug_table), which run only when the kernel has a
 *    bug;
 *  - none is in the exception table (an access that may fault, to user
 *    memory, say), or patched by an alternative whose replacement
 *    branches or waits (one that does not: its instructions counted);
 *  - a static branch goes to one of them;
 *  - every function it calls or jumps to, in the object, is bounded (no
 *    recursion); the hooks are not counted.
 * Its bound is the number of those instructions, and its callees' for
 * each call: an upper bound on what one call runs, interrupts aside.
 */
#define BOUND_MAX	(1ULL << 40)	/* "too long": more, and no bound */

struct bfn {
	uint64_t insns, bound;
	size_t *callees, ncallees, cap;	/* node << 1, 1 if jumped to */
	size_t hooks, enters;	/* calls and tail calls to the hooks, entry's */
	bool shares;		/* jumps to code with sites: its .cold part */
	size_t next;		/* bounded_solve()'s next callee */
	const char *why;	/* why no bound, NULL if none yet */
	size_t why_node;	/* the callee without one, or NO_NODE */
	uint64_t why_off;	/* where, in the function */
	unsigned char state;	/* 0 not decoded, 1 being solved, 2 done */
};

/* An instruction of the function being decoded, and where it goes. */
enum bgo {
	BGO_ON,			/* to the next, unless it ends straight-line code */
	BGO_JUMP,		/* and to target, in the function */
	BGO_CALL,		/* and a call or jump to callee */
	BGO_HOOK,		/* and a call of a hook */
	BGO_RET,		/* a return, or a jump that is one */
	BGO_NO,			/* why: what makes the function unbounded */
};

struct binsn {
	uint64_t off;		/* in the function */
	uint64_t target;	/* BGO_JUMP: in the function */
	size_t callee;		/* BGO_CALL: node << 1, 1 if a jump */
	const char *why;	/* BGO_NO */
	unsigned char go;	/* enum bgo */
	unsigned char hook;	/* BGO_HOOK: enum hook */
	bool ends;		/* nothing falls through past it */
	unsigned char color;	/* the cycle search's: 0 new, 1 on path, 2 done */
	unsigned char edge;	/* the cycle search's next edge */
};

struct bounded {
	struct reach *r;
	struct bfn *f;		/* by node */
	size_t nf;
	struct binsn *in;	/* the function being decoded */
	size_t nin, incap;
	size_t *dfs;		/* its cycle search's stack */
	size_t u;		/* its node */
	bool oom;
};

static bool bounded_grow(struct bounded *b)
{
	size_t n = b->r->nnodes, i;
	struct bfn *v;

	if (n <= b->nf)
		return true;
	v = realloc(b->f, n * sizeof(*v));
	if (!v)
		return false;
	for (i = b->nf; i < n; i++) {
		memset(&v[i], 0, sizeof(v[i]));
		v[i].why_node = NO_NODE;
	}
	b->f = v;
	b->nf = n;
	return true;
}

static void bounded_no(struct bfn *f, const char *why, uint64_t off)
{
	if (!f->why) {
		f->why = why;
		f->why_off = off;
	}
}

static int bounded_add_callee(struct bfn *f, size_t v)
{
	if (f->ncallees == f->cap) {
		size_t cap = f->cap ? 2 * f->cap : 8;
		size_t *p = realloc(f->callees, cap * sizeof(*p));

		if (!p)
			return -1;
		f->callees = p;
		f->cap = cap;
	}
	f->callees[f->ncallees++] = v;
	return 0;
}

/* Where a direct branch of the function being decoded goes: into bi. */
static void bounded_branch(struct bounded *b, size_t shndx, uint64_t off,
			   const struct insn *in, struct binsn *bi)
{
	struct reach *r = b->r;
	const struct node *n = &r->nodes[b->u];
	const struct rel_ent *rel = rel_at(r, shndx, in->field);
	size_t tsec = shndx, v;
	uint64_t t = in->target;
	bool thumb = in->thumb;

	if (rel) {
		int64_t disp = rel->addend;

		if (is_hook(r->o, rel->sym)) {
			bi->go = BGO_HOOK;
			bi->hook = hook_of(r->o, rel->sym);
			return;
		}
		if (r->o->eh.e_machine == EM_X86_64) {
			/* A return through the return thunk (retbleed). */
			if (!strcmp(sym_name(r->o, rel->sym), "__x86_return_thunk")) {
				bi->go = BGO_RET;
				bi->ends = true;
				return;
			}
			disp += off + in->len - in->field;
		}
		if (!rel_target(r, rel, disp, &tsec, &t, &thumb)) {
			bi->go = BGO_NO;
			bi->why = "calls outside the object";
			return;
		}
	}
	if (tsec == n->shndx && t >= n->start && t < n->end && !in->call) {
		bi->go = BGO_JUMP;
		bi->target = t - n->start;
		return;
	}
	v = node_at(r, tsec, t, thumb, &b->oom);
	if (v == NO_NODE || v == b->u) {	/* no code; into its own middle */
		bi->go = BGO_NO;
		bi->why = v == NO_NODE ? "branch out of the code" : "loop";
		return;
	}
	bi->go = BGO_CALL;
	bi->callee = v << 1 | !in->call;
}

/*
 * Is the instruction at off the trap of a BUG() or WARN()?  It runs only
 * when the kernel has a bug, and then, like an interrupt, runs other code
 * inside the call: not a wait of the function's own.
 */
static bool bounded_bug_trap(const struct reach *r, size_t shndx, uint64_t off)
{
	size_t a = alt_from(r->bugs, r->nbugs, shndx, off);

	return a < r->nbugs && r->bugs[a].orig_sec == shndx &&
	       r->bugs[a].orig == off;
}

/* Each instruction of the function being decoded, as walk() gives them. */
static int bounded_insn(struct reach *r, size_t shndx, uint64_t off,
			const struct insn *in, void *arg)
{
	struct bounded *b = arg;
	struct binsn *bi;

	if (b->nin == b->incap) {
		size_t cap = b->incap ? 2 * b->incap : 256;
		struct binsn *v = realloc(b->in, cap * sizeof(*v));
		size_t *d;

		if (!v)
			return -1;
		b->in = v;
		d = realloc(b->dfs, cap * sizeof(*d));
		if (!d)
			return -1;
		b->dfs = d;
		b->incap = cap;
	}
	bi = &b->in[b->nin++];
	memset(bi, 0, sizeof(*bi));
	bi->off = off - r->nodes[b->u].start;
	bi->ends = in->term || in->ret || (in->indirect && !in->call);
	if (in->waits && bounded_bug_trap(r, shndx, off)) {
		bi->ends = false;	/* a WARN() goes on after its trap */
	} else if (in->waits) {
		bi->go = BGO_NO;
		bi->why = "waits or traps";
	} else if (in->indirect) {
		bi->go = BGO_NO;
		bi->why = "indirect branch";
	} else if (in->ret) {
		bi->go = BGO_RET;
	} else if (in->branch) {
		bounded_branch(b, shndx, off, in, bi);
		if (b->oom)
			return -1;
		/* Its sites, whether or not they can run. */
		if (bi->go == BGO_HOOK && !bounded_grow(b))
			return -1;
		if (bi->go == BGO_HOOK) {
			b->f[b->u].hooks++;
			b->f[b->u].enters += bi->hook == ENTER;
		}
	}
	return 0;
}

/* The instruction that starts at off in the function, or b->nin. */
static size_t bounded_at(const struct bounded *b, uint64_t off)
{
	size_t lo = 0, hi = b->nin;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (b->in[mid].off < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < b->nin && b->in[lo].off == off ? lo : b->nin;
}

/*
 * Edge e (0, 1, 2) of instruction i: the next, its jump's target, a static
 * branch's; b->nin if it has none, SIZE_MAX if it goes where no decoded
 * instruction starts.
 */
static size_t bounded_edge(const struct bounded *b, size_t i, unsigned int e,
			   const struct alt *jump, uint64_t start)
{
	const struct binsn *bi = &b->in[i];

	if (e == 0)
		return bi->ends || bi->go == BGO_NO ? b->nin : i + 1;
	if (e == 1 && bi->go == BGO_JUMP) {
		size_t t = bounded_at(b, bi->target);

		return t == b->nin ? SIZE_MAX : t;
	}
	if (e == 2 && jump) {
		size_t t = bounded_at(b, jump->repl - start);

		return t == b->nin ? SIZE_MAX : t;
	}
	return b->nin;
}

/*
 * The instructions that can run, from the entry: each judged once, and a
 * loop if a path comes back to one (depth first, without recursion).
 */
static void bounded_paths(struct bounded *b, struct bfn *f, const struct node *n)
{
	size_t sp = 0, i;

	if (!b->nin)
		return;
	b->dfs[sp++] = 0;
	b->in[0].color = 1;
	while (sp && !f->why) {
		struct binsn *bi;
		const struct alt *jump = NULL;
		size_t a, t;

		i = b->dfs[sp - 1];
		bi = &b->in[i];
		if (bi->edge == 0) {		/* first visit: judge it */
			f->insns++;
			if (bi->go == BGO_NO)
				bounded_no(f, bi->why, bi->off);
			else if (bi->go == BGO_CALL && bounded_add_callee(f, bi->callee))
				b->oom = true;
		}
		if (bi->edge == 3) {
			bi->color = 2;
			sp--;
			continue;
		}
		a = alt_from(b->r->jumps, b->r->njumps, n->shndx, n->start + bi->off);
		if (a < b->r->njumps && b->r->jumps[a].orig_sec == n->shndx &&
		    b->r->jumps[a].orig == n->start + bi->off)
			jump = &b->r->jumps[a];
		t = bounded_edge(b, i, bi->edge++, jump, n->start);
		if (t == SIZE_MAX) {
			bounded_no(f, jump && bi->edge == 3 ? "static branch out" :
				   "undecoded", bi->off);
		} else if (t < b->nin) {
			if (b->in[t].color == 1)
				bounded_no(f, "loop", b->in[t].off);
			else if (!b->in[t].color) {
				b->in[t].color = 1;
				b->dfs[sp++] = t;
			}
		}
	}
	/* Runs on past its end into the next symbol's code: its callee. */
	if (!f->why && b->in[b->nin - 1].color && !b->in[b->nin - 1].ends &&
	    b->in[b->nin - 1].go != BGO_NO && n->falls &&
	    n->end < b->r->secs[n->shndx].size) {
		size_t v = node_at(b->r, n->shndx, n->end, n->thumb, &b->oom);

		if (v != NO_NODE && bounded_add_callee(f, v << 1 | 1))
			b->oom = true;
	}
}

/*
 * An instruction of an alternative's replacement, which may run in place
 * of the code it patches: counted (*arg), or the end of the walk (-1) if
 * it branches, calls or waits.
 */
static int bounded_alt_insn(struct reach *r, size_t shndx, uint64_t off,
			    const struct insn *in, void *arg)
{
	uint64_t *count = arg;

	if (in->branch || in->call || in->indirect || in->ret ||
	    (in->waits && !bounded_bug_trap(r, shndx, off)))
		return -1;
	++*count;
	return 0;
}

/* Node u: its own instructions, callees, and what tables say of them. */
static int bounded_decode(struct bounded *b, size_t u)
{
	struct reach *r = b->r;
	struct node n = r->nodes[u];
	struct bfn *f;
	uint64_t stop;
	bool term, bad;
	size_t a;

	b->u = u;
	b->nin = 0;
	if (walk(r, n.shndx, n.start, n.end, n.thumb, false, bounded_insn, b,
		 &stop, &term, &bad) || !bounded_grow(b))
		return -1;
	f = &b->f[u];
	if (bad)
		bounded_no(f, "undecoded", stop - n.start);
	for (a = alt_from(r->extab, r->nextab, n.shndx, n.start);
	     a < r->nextab && r->extab[a].orig_sec == n.shndx &&
	     r->extab[a].orig < n.end; a++)
		bounded_no(f, "exception table (may fault)", r->extab[a].orig - n.start);
	for (a = alt_from(r->alts, r->nalts, n.shndx, n.start);
	     a < r->nalts && r->alts[a].orig_sec == n.shndx &&
	     r->alts[a].orig < n.end; a++) {
		const struct alt *alt = &r->alts[a];
		uint64_t count = 0;

		if (walk(r, alt->repl_sec, alt->repl, alt->repl + alt->len,
			 n.thumb, false, bounded_alt_insn, &count, &stop, &term,
			 &bad) || bad || stop < alt->repl + alt->len)
			bounded_no(f, "alternative", alt->orig - n.start);
		f->insns += count;
	}
	bounded_paths(b, f, &n);
	if (b->oom || !bounded_grow(b))
		return -1;
	return 0;
}

/*
 * Every node's bound, depth first without recursion (an object's call
 * chains may be deep): a node is done when its callees are.
 */
static int bounded_solve(struct bounded *b, size_t root, size_t **stack,
			 size_t *cap)
{
	size_t sp = 0;

	if (b->f[root].state)
		return 0;
	(*stack)[sp++] = root;
	while (sp) {
		size_t u = (*stack)[sp - 1], v;
		struct bfn *f = &b->f[u];
		bool jump;

		if (!f->state) {
			if (bounded_decode(b, u))
				return -1;
			f = &b->f[u];
			f->state = 1;
			f->bound = f->insns;
		}
		if (f->why || f->next == f->ncallees) {
			f->state = 2;
			sp--;
			continue;
		}
		v = f->callees[f->next] >> 1;
		jump = f->callees[f->next++] & 1;
		if (b->f[v].state == 1) {
			bounded_no(f, "recursion", 0);
			f->why_node = v;
			continue;
		}
		if (b->f[v].state == 2) {
			f->shares |= jump && b->f[v].hooks;
			if (b->f[v].why) {
				bounded_no(f, "calls", 0);
				f->why_node = v;
			} else if ((f->bound += b->f[v].bound) >= BOUND_MAX) {
				bounded_no(f, "too long", 0);
			}
			continue;
		}
		f->next--;		/* again, once v is done */
		if (sp == *cap) {
			size_t c = 2 * *cap;
			size_t *s = realloc(*stack, c * sizeof(*s));

			if (!s)
				return -1;
			*stack = s;
			*cap = c;
		}
		(*stack)[sp++] = v;
	}
	return 0;
}

static void bounded_free(struct bounded *b)
{
	size_t i;

	for (i = 0; i < b->nf; i++)
		free(b->f[i].callees);
	free(b->f);
	free(b->in);
	free(b->dfs);
}

/* Every function's bound, or why it has none, into b; 0, or -1. */
static int bounded_classify(struct reach *r, struct bounded *b)
{
	size_t i, cap = 256, *stack = malloc(cap * sizeof(*stack));
	int ret = -1;

	b->r = r;
	if (!stack || !bounded_grow(b))
		goto out;
	for (i = 0; i < r->nsorted; i++)
		if (bounded_solve(b, i, &stack, &cap))
			goto out;
	ret = 0;
out:
	free(stack);
	if (ret)
		obj_fail(r->o, "out of memory");
	return ret;
}

/*
 * --bounded: a line a function that calls the hooks, "NAME BOUND", or
 * "NAME - WHY" if it has none; then a summary.  0, or -1 on an error.
 */
static int reach_bounded(struct reach *r)
{
	struct bounded b = { 0 };
	size_t i, nhook = 0, nbounded = 0, nleaves = 0;

	if (bounded_classify(r, &b)) {
		bounded_free(&b);
		return -1;
	}
	for (i = 0; i < r->nsorted; i++) {
		const struct bfn *f = &b.f[i];
		const char *name = node_name(r, &r->nodes[i]);

		if (!f->hooks)
			continue;
		nhook++;
		if (!f->why) {
			nbounded++;
			nleaves += !f->ncallees;
			printf("%s %llu\n", name, (unsigned long long)f->bound);
		} else if (f->why_node != NO_NODE) {
			printf("%s - %s %s\n", name, f->why,
			       node_name(r, &r->nodes[f->why_node]));
		} else {
			printf("%s - %s at +0x%llx\n", name, f->why,
			       (unsigned long long)f->why_off);
		}
	}
	printf("# %s: %zu functions call the hooks, %zu bounded (%zu leaves)\n",
	       r->o->path, nhook, nbounded, nleaves);
	bounded_free(&b);
	return 0;
}

static void reach_free(struct reach *r)
{
	size_t i;

	for (i = 0; r->secs && i < r->o->nsecs; i++)
		free(r->secs[i].rels);
	for (i = r->nsorted; i < r->nnodes; i++)
		free(r->nodes[i].label);
	free(r->secs);
	free(r->nodes);
	free(r->map);
	free(r->alts);
	free(r->jumps);
	free(r->extab);
	free(r->bugs);
	free(r->queue);
}

/*
 * Is the site in a function bounded by max instructions, whose sites are
 * its own: one call of the entry hook (more are functions GCC inlined into
 * it, which a run may name: the kernel tells a site's function by the
 * text it is in), one of the exit's at least, and no jump into other code
 * with sites (its .cold part, whose sites are its too)?
 */
static bool site_bounded(const struct reach *r, const struct bounded *b,
			 const struct site *site, uint64_t max)
{
	const struct object *o = r->o;
	GElf_Sym sym;
	size_t shndx, k;
	uint64_t off;

	if (!gelf_getsym(o->syms, site->sym, &sym))
		return false;
	shndx = o->sym_shndx[site->sym];
	off = sym.st_value + site->addend;
	k = node_after(r, shndx, off);
	if (!k || r->nodes[k - 1].shndx != shndx || off >= r->nodes[k - 1].end)
		return false;
	k--;
	return k < b->nf && !b->f[k].why && b->f[k].bound <= max &&
	       b->f[k].enters == 1 && b->f[k].hooks > 1 && !b->f[k].shares;
}

/*
 * --bounded-sites MAX: of the sites the lister found in o (o->sites), keep
 * those in functions bounded by max instructions, both hooks' in
 * o->sites[ENTER].  x86_64 and arm64; 0, or -1 having said why.
 */
int bounded_sites(struct object *o, uint64_t max)
{
	static const struct reach_opts opt = { .bounded = true };
	struct reach r = { .o = o, .opt = &opt };
	struct bounded b = { 0 };
	struct sites keep = { 0 };
	size_t i;
	int h, ret = -1;

	if (o->eh.e_machine != EM_X86_64 && o->eh.e_machine != EM_AARCH64) {
		obj_fail(o, "--bounded-sites knows x86_64 and arm64 code only");
		return -1;
	}
	r.msb = o->eh.e_ident[EI_DATA] == ELFDATA2MSB;
	if (reach_index(&r) || reach_tables(&r) || bounded_classify(&r, &b))
		goto out;
	keep.cap = o->sites[ENTER].n + o->sites[EXIT].n;
	keep.v = malloc((keep.cap ? keep.cap : 1) * sizeof(*keep.v));
	if (!keep.v) {
		obj_fail(o, "out of memory");
		goto out;
	}
	for (h = 0; h < NR_HOOKS; h++)
		for (i = 0; i < o->sites[h].n; i++)
			if (site_bounded(&r, &b, &o->sites[h].v[i], max))
				keep.v[keep.n++] = o->sites[h].v[i];
	free(o->sites[ENTER].v);
	o->sites[ENTER] = keep;
	o->sites[EXIT].n = 0;
	ret = 0;
out:
	bounded_free(&b);
	reach_free(&r);
	return ret;
}

/*
 * --reach (or --insns): 0 if the hooks reach nothing instrumented, 1 if
 * they do, -1 on an error.
 */
int reach(const char *path, const struct reach_opts *opt)
{
	static const struct reach_opts none;
	struct object o = { .path = path };
	struct reach r = { .o = &o, .opt = opt ? opt : &none };
	int fd, ret = -1;

	if (open_object(&o, path, &fd, false))
		goto out;
	if (!o.symtab) {
		obj_fail(&o, "no symbol table");
		goto out;
	}
	r.msb = o.eh.e_ident[EI_DATA] == ELFDATA2MSB;
	if (r.opt->bounded && o.eh.e_machine != EM_X86_64 &&
	    o.eh.e_machine != EM_AARCH64) {
		obj_fail(&o, "--bounded knows x86_64 and arm64 code only");
		goto out;
	}
	if (index_symbols(&o) || reach_index(&r) || reach_tables(&r))
		goto out;
	if (r.opt->insns) {
		reach_insns(&r);
		ret = 0;
	} else if (r.opt->bounded) {
		ret = reach_bounded(&r);
	} else {
		ret = reach_walk(&r);
	}
out:
	reach_free(&r);
	free(o.sym_shndx);
	free(o.secsym);
	free(o.by_sec);
	if (o.elf)
		elf_end(o.elf);
	if (fd >= 0)
		close(fd);
	return ret;
}
