// SPDX-License-Identifier: GPL-2.0
/*
 * kftsites --bounded and --bounded-sites: which functions run a bounded
 * number of instructions, on the model of the code (kftsites_code.c) and
 * the decoders' call, indirect, ret and waits (x86_64 and arm64).
 *
 * Uses the model of the code; called by kftsites.c: its command line
 * (--bounded) and its lister (--bounded-sites).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kftsites_code.h"

/*
 * --bounded: which functions that call the hooks run a bounded number of
 * instructions, each time they are called - all a run with a time filter
 * needs to know to leave their hook calls NOPs when the bound is below
 * its threshold.  A function is bounded if, of its instructions that can
 * run (from its entry, falling through and by its branches):
 *  - no path runs one twice (no loop), but for arm64's LL/SC retry (a
 *    store-exclusive's failure, branching back to its load-exclusive),
 *    which repeats only when another CPU or an interrupt broke the
 *    exclusive access; and no branch goes through a register;
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
	bool excl_load;		/* struct insn's: an LL/SC retry's parts */
	unsigned char excl_status, cbnz;
	unsigned char color;	/* the cycle search's: 0 new, 1 on path, 2 done */
	unsigned char edge;	/* the cycle search's next edge */
};

struct bounded {
	struct code *r;
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
	struct code *r = b->r;
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
static bool bounded_bug_trap(const struct code *r, size_t shndx, uint64_t off)
{
	size_t a = alt_from(r->bugs, r->nbugs, shndx, off);

	return a < r->nbugs && r->bugs[a].orig_sec == shndx &&
	       r->bugs[a].orig == off;
}

/* Each instruction of the function being decoded, as walk() gives them. */
static int bounded_insn(struct code *r, size_t shndx, uint64_t off,
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
	bi->excl_load = in->excl_load;
	bi->excl_status = in->excl_status;
	bi->cbnz = in->cbnz;
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
 * Does instruction i's branch back to t retry an LL/SC access (arm64)?
 * It is a CBNZ on the status of the store-exclusive just before it, back
 * to a load-exclusive.  The store fails, and the code between runs again,
 * only when another CPU or an exception broke the exclusive access: the
 * time that takes is theirs, as an interrupt's is.  Its instructions are
 * counted once.
 */
static bool bounded_retry(const struct bounded *b, size_t i, size_t t)
{
	const struct binsn *bi = &b->in[i];

	return bi->cbnz && bi->go == BGO_JUMP && t < i && b->in[t].excl_load &&
	       b->in[i - 1].excl_status == bi->cbnz &&
	       b->in[i - 1].off + 4 == bi->off;
}

/*
 * The instructions that can run, from the entry: each judged once, and a
 * loop if a path comes back to one (depth first, without recursion), but
 * for an LL/SC retry.
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
			if (b->in[t].color == 1 && !bounded_retry(b, i, t))
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
static int bounded_alt_insn(struct code *r, size_t shndx, uint64_t off,
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
	struct code *r = b->r;
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
static int bounded_classify(struct code *r, struct bounded *b)
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
 * A line a function that calls the hooks, "NAME BOUND", or
 * "NAME - WHY" if it has none; then a summary.  0, or -1 on an error.
 */
static int bounded_print(struct code *r)
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

/*
 * Is the site in a function bounded by max instructions, whose sites are
 * its own: one call of the entry hook (more are functions GCC inlined into
 * it, which a run may name: the kernel tells a site's function by the
 * text it is in), one of the exit's at least, and no jump into other code
 * with sites (its .cold part, whose sites are its too)?
 */
static bool site_bounded(const struct code *r, const struct bounded *b,
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
	struct code r = { .o = o, .opt = &opt, .fd = -1 };
	struct bounded b = { 0 };
	struct sites keep = { 0 };
	size_t i;
	int h, ret = -1;

	if (o->eh.e_machine != EM_X86_64 && o->eh.e_machine != EM_AARCH64) {
		obj_fail(o, "--bounded-sites knows x86_64 and arm64 code only");
		return -1;
	}
	r.msb = o->eh.e_ident[EI_DATA] == ELFDATA2MSB;
	if (code_index(&r) || code_tables(&r) || bounded_classify(&r, &b))
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
	code_free(&r);
	return ret;
}

/* --bounded: each function's bound, of those in path that call the hooks. */
int bounded_list(const char *path)
{
	static const struct reach_opts opt = { .bounded = true };
	struct object o;
	struct code r;
	int ret = -1;

	if (!code_open(&r, &o, path, &opt))
		ret = bounded_print(&r);
	code_close(&r);
	return ret;
}
