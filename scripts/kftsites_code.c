// SPDX-License-Identifier: GPL-2.0
/*
 * kftsites' model of an object's code, for --reach and --bounded
 * (kftsites_code.h says what it holds).
 *
 * A branch goes where its relocation says, if it has one (a call to
 * another object, or to a global function); else where its displacement
 * says (a call within an object's section, to a static function, which the
 * assembler resolved and left no relocation for).  So each function is
 * decoded: x86_64 by instruction length, arm64 and riscv64 by their
 * encodings, arm in the ARM and Thumb instruction sets as its mapping
 * symbols say ($a, $t), skipping data ($d, on every machine).  The
 * replacement code of the alternatives patched into a function
 * (.altinstructions, riscv's .alternative) is decoded with it, and its
 * static branches (__jump_table) go where they jump once patched.  A
 * static call goes to its trampoline, which jumps to its initial target.
 * Calls through pointers are not followed.  A function without a size, or
 * one cut short by the next symbol, runs on into the next.
 *
 * Uses the object (kftsites_elf.c) and the decoders (kftsites_x86.c,
 * _arm64.c, _riscv.c, _arm.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kftsites_code.h"

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
bool is_hook(const struct object *o, size_t ndx)
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

const char *sym_name(const struct object *o, size_t ndx)
{
	GElf_Sym sym;
	const char *name;

	if (!gelf_getsym(o->syms, ndx, &sym))
		return "?";
	name = elf_strptr(o->elf, o->strtab_ndx, sym.st_name);
	return name ? name : "?";
}

const char *node_name(const struct code *r, const struct node *n)
{
	return n->label ? n->label : sym_name(r->o, n->sym);
}

/* The first node after (shndx, off) among the symbols'. */
size_t node_after(const struct code *r, size_t shndx, uint64_t off)
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
static uint64_t code_limit(const struct code *r, size_t shndx, uint64_t off)
{
	size_t k = node_after(r, shndx, off);

	if (k < r->nsorted && r->nodes[k].shndx == shndx)
		return r->nodes[k].start;
	return r->secs[shndx].size;
}

/* The first mapping symbol after (shndx, off). */
static size_t map_after(const struct code *r, size_t shndx, uint64_t off)
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
int walk(struct code *r, size_t shndx, uint64_t start, uint64_t end,
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
static size_t add_label_node(struct code *r, size_t shndx, uint64_t off,
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
size_t node_at(struct code *r, size_t shndx, uint64_t off, bool thumb,
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
const struct rel_ent *rel_at(const struct code *r, size_t shndx,
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

/* A branch from the node to (shndx, off): hook, itself, or another. */
static int edge_to(struct code *r, struct edges *e, size_t shndx, uint64_t off,
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
bool rel_target(const struct code *r, const struct rel_ent *rel,
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
static int edge_rel(struct code *r, struct edges *e, const struct rel_ent *rel,
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
static int node_insn(struct code *r, size_t shndx, uint64_t off,
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
static int branch_rels(struct code *r, struct edges *e, size_t shndx,
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
static int x86_scan(struct code *r, struct edges *e, size_t shndx,
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
static int decode_range(struct code *r, struct edges *e, size_t shndx,
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
size_t alt_from(const struct alt *v, size_t n, size_t shndx,
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
int decode_node(struct code *r, size_t u, struct edges *e)
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
int code_index(struct code *r)
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
static int read_table(struct code *r, const char *name, size_t entsize,
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
int code_tables(struct code *r)
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

/*
 * --insns: every function's instructions as decoded, "SECTION OFFSET
 * LENGTH", and a direct branch's target as its bytes give it.
 */
static int insn_print(struct code *r, size_t shndx, uint64_t off,
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

void code_insns(struct code *r)
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

void code_free(struct code *r)
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

int code_open(struct code *r, struct object *o, const char *path,
	      const struct reach_opts *opt)
{
	static const struct reach_opts none;

	memset(r, 0, sizeof(*r));
	memset(o, 0, sizeof(*o));
	o->path = path;
	r->o = o;
	r->opt = opt ? opt : &none;
	if (open_object(o, path, &r->fd, false))
		return -1;
	if (!o->symtab)
		return obj_fail(o, "no symbol table");
	r->msb = o->eh.e_ident[EI_DATA] == ELFDATA2MSB;
	if (r->opt->bounded && o->eh.e_machine != EM_X86_64 &&
	    o->eh.e_machine != EM_AARCH64)
		return obj_fail(o, "--bounded knows x86_64 and arm64 code only");
	return index_symbols(o) || code_index(r) || code_tables(r) ? -1 : 0;
}

void code_close(struct code *r)
{
	struct object *o = r->o;

	code_free(r);
	free(o->sym_shndx);
	free(o->secsym);
	free(o->by_sec);
	if (o->elf)
		elf_end(o->elf);
	o->elf = NULL;
	if (r->fd >= 0)
		close(r->fd);
	r->fd = -1;
}
