// SPDX-License-Identifier: GPL-2.0
/*
 * kftsites: list where an object calls KFT's hooks, for the kernel to turn
 * those calls into NOPs while no run is armed (kernel/kft_sites.c).
 *
 * -finstrument-functions makes every instrumented function call
 * __cyg_profile_func_enter() and __cyg_profile_func_exit().  For each call
 * made in an executable section of a relocatable object, this adds the
 * address of the call instruction to __kft_enter_loc or __kft_exit_loc:
 * an array of pointers, each with an absolute relocation against the
 * section symbol (so that it holds after linking).  These are the sections
 * objtool --kft makes on x86; the linker script and the module loader
 * collect them the same way.
 *
 * Calls are told by their relocation type.  A tail call to the exit hook
 * (a branch, not a branch and link) is also the function's return, which
 * the kernel turns into a return while no run is armed: it is listed with
 * the exit's calls.  A conditional one is not: it would stay a call.
 *
 *   arm64   R_AARCH64_CALL26; JUMP26 (B) a tail call
 *   arm     R_ARM_CALL, R_ARM_THM_CALL; JUMP24 (an unconditional B in
 *           ARM), THM_JUMP24 (B.W) a tail call
 *   riscv   R_RISCV_CALL(_PLT) whose JALR links to ra; to x0, a tail call
 *   x86_64  R_X86_64_PLT32/PC32 after a CALL opcode; JMP: a tail call
 *
 * Run by the kernel build on each instrumented object, as recordmcount is
 * (scripts/Makefile.build), on architectures without objtool.  An object
 * that calls no hook, or that has the sections already, is left as it is.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define MAX_ALIGN	65536	/* no compiler aligns a section more */

#ifndef R_AARCH64_CALL26
#define R_AARCH64_CALL26	283
#endif
#ifndef R_AARCH64_JUMP26
#define R_AARCH64_JUMP26	282
#endif
#ifndef R_AARCH64_ABS64
#define R_AARCH64_ABS64		257
#endif
#ifndef R_ARM_THM_CALL
#define R_ARM_THM_CALL		10	/* glibc: R_ARM_THM_PC22 */
#endif
#ifndef R_ARM_THM_JUMP24
#define R_ARM_THM_JUMP24	30
#endif
#ifndef R_RISCV_CALL
#define R_RISCV_CALL		18
#endif
#ifndef R_RISCV_CALL_PLT
#define R_RISCV_CALL_PLT	19
#endif
#ifndef R_RISCV_32
#define R_RISCV_32		1
#endif
#ifndef R_RISCV_64
#define R_RISCV_64		2
#endif

enum hook { ENTER, EXIT, NR_HOOKS };

static const char *const hook_name[NR_HOOKS] = {
	"__cyg_profile_func_enter", "__cyg_profile_func_exit",
};

static const char *const loc_name[NR_HOOKS] = {
	"__kft_enter_loc", "__kft_exit_loc",
};

/* A call site: offset in a section, as a symbol and addend. */
struct site {
	size_t sym;
	int64_t addend;
};

struct sites {
	struct site *v;
	size_t n, cap;
};

struct object {
	const char *path;
	Elf *elf;
	GElf_Ehdr eh;
	size_t shstrndx;
	Elf_Scn *symtab;
	size_t symtab_ndx, strtab_ndx, nsyms;
	Elf_Data *syms;
	/*
	 * Built once (index_symbols()), so that the sites of an object with
	 * many sections cost no scan of every symbol per section: each
	 * symbol's section (SHN_XINDEX resolved), each section's section
	 * symbol, and the defined non-weak symbols by section and value.
	 */
	size_t *sym_shndx, *secsym, *by_sec, nby_sec, nsecs;
	bool is64, rela;
	uint64_t size;		/* of the file */
	struct sites sites[NR_HOOKS];
	void *bufs[8];		/* given to libelf until elf_end() */
	int nbufs;
};

static bool verbose;

static void usage(FILE *f)
{
	fprintf(f,
		"usage: kftsites [-v] OBJECT...\n"
		"       kftsites --reach [-v] [--stop FUNC]... [--allow FUNC]... OBJECT...\n"
		"Add __kft_enter_loc and __kft_exit_loc, the addresses of the calls\n"
		"to KFT's hooks, to each relocatable ELF object (arm64, arm, riscv,\n"
		"x86_64).  Objects that call no hook, or have the sections, are left\n"
		"as they are.\n"
		"With --reach, change nothing: follow the direct calls and jumps from\n"
		"the hooks through the object (vmlinux.o), and fail naming the path to\n"
		"each function reached that calls a hook.\n"
		"\n"
		"  -v, --verbose   say how many sites each object has; with --reach,\n"
		"                  list every function reached and what reached it\n"
		"  --stop FUNC     FUNC must not call a hook, but what it calls is not\n"
		"                  followed\n"
		"  --allow FUNC    the hooks may reach FUNC: neither checked nor followed\n"
		"  --insns         print where each function's instructions start, as\n"
		"                  --reach decodes them (for tests)\n"
		"  -h, --help      this help\n");
}

static int fail(const struct object *o, const char *what)
{
	/* elf_errno() clears the error it returns: read it once. */
	int e = elf_errno();

	fprintf(stderr, "kftsites: %s: %s%s%s\n", o->path, what,
		e ? ": " : "", e ? elf_errmsg(e) : "");
	return -1;
}

/* Keep buf for libelf until the object is written; NULL if out of memory. */
static void *keep(struct object *o, void *buf)
{
	if (buf && o->nbufs < (int)ARRAY_SIZE(o->bufs)) {
		o->bufs[o->nbufs++] = buf;
		return buf;
	}
	free(buf);
	return NULL;
}

static const char *sec_name(const struct object *o, Elf_Scn *scn)
{
	GElf_Shdr sh;

	if (!gelf_getshdr(scn, &sh))
		return NULL;
	return elf_strptr(o->elf, o->shstrndx, sh.sh_name);
}

static int add_site(struct object *o, enum hook h, size_t sym, int64_t addend)
{
	struct sites *s = &o->sites[h];

	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 256;
		struct site *v = realloc(s->v, cap * sizeof(*v));

		if (!v)
			return fail(o, "out of memory");
		s->v = v;
		s->cap = cap;
	}
	s->v[s->n].sym = sym;
	s->v[s->n].addend = addend;
	s->n++;
	return 0;
}

/* The bytes of a section at off, or NULL past its end. */
static const uint8_t *sec_bytes(Elf_Scn *scn, uint64_t off, size_t len)
{
	Elf_Data *d = elf_getdata(scn, NULL);

	if (!d || !d->d_buf || off > d->d_size || d->d_size - off < len)
		return NULL;
	return (const uint8_t *)d->d_buf + off;
}

/*
 * Is the relocation at off in text, against hook h, one of h's sites: a
 * call, or a tail call of the exit hook?  -1: malformed.
 */
static int is_site(const struct object *o, Elf_Scn *text, unsigned int type,
		   uint64_t off, enum hook h)
{
	const uint8_t *p;

	switch (o->eh.e_machine) {
	case EM_AARCH64:
		return type == R_AARCH64_CALL26 ||
		       (h == EXIT && type == R_AARCH64_JUMP26);
	case EM_ARM:
		if (type == R_ARM_CALL || type == R_ARM_THM_CALL)
			return 1;
		if (h != EXIT)
			return 0;
		if (type == R_ARM_THM_JUMP24)
			return 1;
		if (type != R_ARM_JUMP24)
			return 0;
		/* B (bits 27-24 1010), its condition (31-28) always. */
		p = sec_bytes(text, off, 4);
		if (!p)
			return -1;
		return p[3] == 0xea;
	case EM_RISCV:
		if (type != R_RISCV_CALL && type != R_RISCV_CALL_PLT)
			return 0;
		/* auipc; jalr rd: bits 7-11 of the jalr are rd, 1 is ra. */
		p = sec_bytes(text, off + 4, 4);
		if (!p)
			return -1;
		switch ((p[0] >> 7 | p[1] << 1) & 0x1f) {
		case 1:
			return 1;
		case 0:
			return h == EXIT;
		}
		return 0;
	case EM_X86_64:
		if (type != R_X86_64_PLT32 && type != R_X86_64_PC32)
			return 0;
		if (!off)
			return -1;
		p = sec_bytes(text, off - 1, 1);
		if (!p)
			return -1;
		return *p == 0xe8 || (h == EXIT && *p == 0xe9);	/* CALL, JMP */
	}
	return 0;
}

/* Which hook a symbol is, or NR_HOOKS. */
static enum hook hook_of(const struct object *o, size_t ndx)
{
	GElf_Sym sym;
	const char *name;
	int h;

	if (!gelf_getsym(o->syms, ndx, &sym) ||
	    GELF_ST_BIND(sym.st_info) == STB_LOCAL)
		return NR_HOOKS;
	name = elf_strptr(o->elf, o->strtab_ndx, sym.st_name);
	for (h = 0; name && h < NR_HOOKS; h++)
		if (!strcmp(name, hook_name[h]))
			return h;
	return NR_HOOKS;
}

/* A symbol's value (0 for one libelf cannot read). */
static uint64_t sym_value(const struct object *o, size_t i)
{
	GElf_Sym sym;

	return gelf_getsym(o->syms, i, &sym) ? sym.st_value : 0;
}

static const struct object *sort_object;	/* for by_section_value() */

static int by_section_value(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	const struct object *o = sort_object;
	uint64_t vx, vy;

	if (o->sym_shndx[x] != o->sym_shndx[y])
		return o->sym_shndx[x] < o->sym_shndx[y] ? -1 : 1;
	vx = sym_value(o, x);
	vy = sym_value(o, y);
	if (vx != vy)
		return vx < vy ? -1 : 1;
	return x < y ? -1 : x > y;
}

/*
 * The symbol index: one pass over the symbols, and a sort.  A symbol in a
 * section past 0xff00 has st_shndx SHN_XINDEX, its section in the
 * SHT_SYMTAB_SHNDX table: read there, or it would be taken for another.
 */
static int index_symbols(struct object *o)
{
	Elf_Data *xndx = NULL;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	size_t i;

	if (elf_getshdrnum(o->elf, &o->nsecs))
		return fail(o, "bad section headers");
	while ((scn = elf_nextscn(o->elf, scn)))
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB_SHNDX &&
		    sh.sh_link == o->symtab_ndx)
			xndx = elf_getdata(scn, NULL);
	o->sym_shndx = calloc(o->nsyms + 1, sizeof(*o->sym_shndx));
	o->secsym = calloc(o->nsecs + 1, sizeof(*o->secsym));
	o->by_sec = calloc(o->nsyms + 1, sizeof(*o->by_sec));
	if (!o->sym_shndx || !o->secsym || !o->by_sec)
		return fail(o, "out of memory");
	for (i = 1; i < o->nsyms; i++) {
		GElf_Word x = 0;
		GElf_Sym sym;
		size_t shndx;

		if (!gelf_getsymshndx(o->syms, xndx, i, &sym, &x))
			return fail(o, "bad symbol");
		shndx = sym.st_shndx == SHN_XINDEX ? x : sym.st_shndx;
		if (sym.st_shndx == SHN_XINDEX && (!xndx || !x || x >= o->nsecs))
			return fail(o, "a symbol's extended section index is missing or past the sections");
		if (sym.st_shndx == SHN_UNDEF ||
		    (sym.st_shndx >= SHN_LORESERVE && sym.st_shndx != SHN_XINDEX))
			continue;	/* undefined, absolute, common: in no section */
		o->sym_shndx[i] = shndx;
		if (GELF_ST_TYPE(sym.st_info) == STT_SECTION && shndx < o->nsecs &&
		    !o->secsym[shndx])
			o->secsym[shndx] = i;
		if (GELF_ST_BIND(sym.st_info) != STB_WEAK)
			o->by_sec[o->nby_sec++] = i;
	}
	sort_object = o;
	qsort(o->by_sec, o->nby_sec, sizeof(*o->by_sec), by_section_value);
	return 0;
}

/* The section symbol of section shndx, or 0 if the object has none. */
static size_t section_symbol(const struct object *o, size_t shndx)
{
	return shndx < o->nsecs ? o->secsym[shndx] : 0;
}

/*
 * Without a section symbol: the defined, non-weak symbol of section shndx
 * nearest below off (a weak one could be replaced by another object's);
 * of several at one value, the first.  Sets *addend.
 */
static int nearest_symbol(const struct object *o, size_t shndx, uint64_t off,
			  size_t *ndx, int64_t *addend)
{
	size_t lo = 0, hi = o->nby_sec, i;
	uint64_t v;

	/* The first entry past (shndx, off). */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2, m = o->by_sec[mid];

		if (o->sym_shndx[m] < shndx ||
		    (o->sym_shndx[m] == shndx && sym_value(o, m) <= off))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || o->sym_shndx[o->by_sec[lo - 1]] != shndx)
		return -1;
	i = lo - 1;
	v = sym_value(o, o->by_sec[i]);
	while (i && o->sym_shndx[o->by_sec[i - 1]] == shndx &&
	       sym_value(o, o->by_sec[i - 1]) == v)
		i--;
	*ndx = o->by_sec[i];
	*addend = off - v;
	return 0;
}

/* Read one relocation of a REL or RELA section. */
static bool get_reloc(Elf_Data *d, bool rela, size_t i, GElf_Rela *r)
{
	GElf_Rel rel;

	if (rela)
		return gelf_getrela(d, i, r);
	if (!gelf_getrel(d, i, &rel))
		return false;
	r->r_offset = rel.r_offset;
	r->r_info = rel.r_info;
	r->r_addend = 0;
	return true;
}

/* Collect the calls to the hooks from every relocation section. */
static int find_sites(struct object *o)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(o->elf, scn))) {
		GElf_Shdr sh, tsh;
		Elf_Scn *text;
		Elf_Data *d;
		size_t i, n, secsym;

		if (!gelf_getshdr(scn, &sh))
			return fail(o, "bad section header");
		if ((sh.sh_type != SHT_RELA && sh.sh_type != SHT_REL) ||
		    sh.sh_link != o->symtab_ndx || !sh.sh_entsize)
			continue;
		text = elf_getscn(o->elf, sh.sh_info);
		if (!text || !gelf_getshdr(text, &tsh))
			return fail(o, "relocations for a missing section");
		if (!(tsh.sh_flags & SHF_EXECINSTR))
			continue;
		d = elf_getdata(scn, NULL);
		n = sh.sh_size / sh.sh_entsize;
		/* Sites are written against it: found once per section. */
		secsym = section_symbol(o, sh.sh_info);
		for (i = 0; d && i < n; i++) {
			GElf_Rela r;
			enum hook h;
			size_t sym;
			int64_t addend;
			int call;

			if (!get_reloc(d, sh.sh_type == SHT_RELA, i, &r))
				return fail(o, "bad relocation");
			if (GELF_R_SYM(r.r_info) >= o->nsyms)
				return fail(o, "relocation against a missing symbol");
			h = hook_of(o, GELF_R_SYM(r.r_info));
			if (h == NR_HOOKS)
				continue;
			call = is_site(o, text, GELF_R_TYPE(r.r_info), r.r_offset, h);
			if (call < 0)
				return fail(o, "relocation outside its section");
			if (!call)
				continue;
			/* x86: the relocation is the CALL's operand. */
			if (o->eh.e_machine == EM_X86_64)
				r.r_offset--;
			sym = secsym;
			addend = r.r_offset;
			if (!secsym &&
			    nearest_symbol(o, sh.sh_info, r.r_offset, &sym, &addend)) {
				fprintf(stderr,
					"kftsites: %s: no symbol to list the call at %s+0x%llx\n",
					o->path, sec_name(o, text),
					(unsigned long long)r.r_offset);
				return -1;
			}
			if (add_site(o, h, sym, addend))
				return -1;
		}
	}
	return 0;
}

/* Append name to the section name table; its offset, or 0. */
static size_t add_name(struct object *o, const char *name)
{
	Elf_Scn *scn = elf_getscn(o->elf, o->shstrndx);
	size_t len = strlen(name) + 1, off;
	Elf_Data *d;
	GElf_Shdr sh;

	if (!scn || !gelf_getshdr(scn, &sh))
		return 0;
	d = elf_newdata(scn);
	if (!d)
		return 0;
	d->d_buf = keep(o, strdup(name));
	d->d_size = len;
	d->d_align = 1;
	d->d_type = ELF_T_BYTE;
	off = sh.sh_size;
	sh.sh_size += len;
	if (!d->d_buf || !gelf_update_shdr(scn, &sh))
		return 0;
	return off;
}

static Elf_Scn *new_section(struct object *o, const char *name, GElf_Shdr *sh,
			    void *buf, size_t size, Elf_Type type)
{
	Elf_Scn *scn = elf_newscn(o->elf);
	Elf_Data *d;

	if (!scn)
		return NULL;
	sh->sh_name = add_name(o, name);
	d = elf_newdata(scn);
	if (!sh->sh_name || !d)
		return NULL;
	d->d_buf = buf;
	d->d_size = size;
	d->d_type = type;
	d->d_align = sh->sh_addralign;
	sh->sh_size = size;
	return gelf_update_shdr(scn, sh) ? scn : NULL;
}

static unsigned int abs_type(const struct object *o)
{
	switch (o->eh.e_machine) {
	case EM_AARCH64:
		return R_AARCH64_ABS64;
	case EM_ARM:
		return R_ARM_ABS32;
	case EM_RISCV:
		return o->is64 ? R_RISCV_64 : R_RISCV_32;
	default:
		return R_X86_64_64;
	}
}

/* __kft_*_loc and its relocation section, for one hook. */
static int write_table(struct object *o, enum hook h)
{
	const struct sites *s = &o->sites[h];
	size_t ptr = o->is64 ? 8 : 4, i;
	size_t relsz = o->rela ? gelf_fsize(o->elf, ELF_T_RELA, 1, EV_CURRENT) :
				 gelf_fsize(o->elf, ELF_T_REL, 1, EV_CURRENT);
	uint8_t *table = keep(o, calloc(s->n, ptr));
	void *rels = keep(o, calloc(s->n, relsz));
	char relname[64];
	GElf_Shdr sh = { 0 };
	Elf_Scn *loc, *rel;
	Elf_Data *d;

	if (!table || !rels)
		return fail(o, "out of memory");
	/* REL keeps the addend in the word it relocates. */
	for (i = 0; !o->rela && i < s->n; i++) {
		uint32_t a = s->v[i].addend;

		if (o->eh.e_ident[EI_DATA] == ELFDATA2MSB)
			a = __builtin_bswap32(a);
		memcpy(table + i * ptr, &a, 4);
	}
	sh.sh_type = SHT_PROGBITS;
	sh.sh_flags = SHF_ALLOC;
	sh.sh_addralign = ptr;
	sh.sh_entsize = ptr;
	loc = new_section(o, loc_name[h], &sh, table, s->n * ptr, ELF_T_BYTE);
	if (!loc)
		return fail(o, "cannot add a section");

	snprintf(relname, sizeof(relname), "%s%s", o->rela ? ".rela" : ".rel",
		 loc_name[h]);
	memset(&sh, 0, sizeof(sh));
	sh.sh_type = o->rela ? SHT_RELA : SHT_REL;
	sh.sh_flags = SHF_INFO_LINK;
	sh.sh_link = o->symtab_ndx;
	sh.sh_info = elf_ndxscn(loc);
	sh.sh_addralign = ptr;
	sh.sh_entsize = relsz;
	rel = new_section(o, relname, &sh, rels, s->n * relsz,
			  o->rela ? ELF_T_RELA : ELF_T_REL);
	if (!rel)
		return fail(o, "cannot add a section");
	d = elf_getdata(rel, NULL);
	for (i = 0; i < s->n; i++) {
		GElf_Rela r = {
			.r_offset = i * ptr,
			.r_info = GELF_R_INFO(s->v[i].sym, abs_type(o)),
			.r_addend = s->v[i].addend,
		};
		GElf_Rel rl = { .r_offset = r.r_offset, .r_info = r.r_info };

		if (o->rela ? !gelf_update_rela(d, i, &r) :
			      !gelf_update_rel(d, i, &rl))
			return fail(o, "cannot write a relocation");
	}
	return 0;
}

/* The section names are in a string table, which kftsites extends. */
static bool shstrtab_ok(const struct object *o)
{
	Elf_Scn *scn = elf_getscn(o->elf, o->shstrndx);
	GElf_Shdr sh;

	return scn && gelf_getshdr(scn, &sh) && sh.sh_type == SHT_STRTAB;
}

/*
 * Every section's links name a section that exists: no compiler writes an
 * object whose sh_link or relocation target points past the last section,
 * and it is not one to rewrite.
 */
static bool links_ok(const struct object *o)
{
	Elf_Scn *scn = NULL;
	size_t shnum;
	GElf_Shdr sh;

	if (elf_getshdrnum(o->elf, &shnum))
		return false;
	while ((scn = elf_nextscn(o->elf, scn))) {
		if (!gelf_getshdr(scn, &sh) || sh.sh_link >= shnum)
			return false;
		if ((sh.sh_type == SHT_REL || sh.sh_type == SHT_RELA ||
		     (sh.sh_flags & SHF_INFO_LINK)) && sh.sh_info >= shnum)
			return false;
	}
	return true;
}

/* 1 if the object has the tables, 0 if not, -1 if its names are bad. */
static int has_tables(const struct object *o)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(o->elf, scn))) {
		const char *name = sec_name(o, scn);

		if (!name)
			return fail(o, "bad section name");
		if (!strcmp(name, loc_name[ENTER]) ||
		    !strcmp(name, loc_name[EXIT]))
			return 1;
	}
	return 0;
}

static int find_symtab(struct object *o)
{
	Elf_Scn *scn = NULL;
	size_t shnum, i;
	GElf_Shdr sh;

	/*
	 * Every section within the file: libelf reads a truncated object as
	 * one without sections.
	 */
	if (o->eh.e_shoff > o->size ||
	    (o->size - o->eh.e_shoff) / (o->eh.e_shentsize ? o->eh.e_shentsize : 1) <
	    o->eh.e_shnum || elf_getshdrnum(o->elf, &shnum))
		return fail(o, "truncated or bad section headers");
	for (i = 1; i < shnum; i++) {
		scn = elf_getscn(o->elf, i);
		if (!scn || !gelf_getshdr(scn, &sh))
			return fail(o, "truncated or bad section headers");
		if (sh.sh_type != SHT_NOBITS &&
		    (sh.sh_offset > o->size || o->size - sh.sh_offset < sh.sh_size))
			return fail(o, "truncated or bad section");
		/* Rewriting pads every section to its alignment. */
		if (sh.sh_addralign > MAX_ALIGN)
			return fail(o, "section aligned beyond 64 KiB");
	}
	scn = NULL;
	while ((scn = elf_nextscn(o->elf, scn))) {
		if (!gelf_getshdr(scn, &sh))
			return fail(o, "bad section header");
		if (sh.sh_type == SHT_SYMTAB) {
			o->symtab = scn;
			o->symtab_ndx = elf_ndxscn(scn);
			o->strtab_ndx = sh.sh_link;
			o->syms = elf_getdata(scn, NULL);
			o->nsyms = sh.sh_entsize ? sh.sh_size / sh.sh_entsize : 0;
			return 0;
		}
	}
	return 0;	/* no symbols: no calls to a hook either */
}

/*
 * Open path and check it is a relocatable object of a machine KFT runs on,
 * for writing or for reading alone (--reach): 0, or -1 having said why.
 * *fd is the file's descriptor (-1 if it could not be opened).
 */
static int open_object(struct object *o, const char *path, int *fd, bool write)
{
	struct stat st;

	unsigned char ident[EI_NIDENT];
	size_t ehsize;
	ssize_t got;

	o->path = path;
	/* Not blocking on a FIFO: it is refused below. */
	*fd = open(path, (write ? O_RDWR : O_RDONLY) | O_NONBLOCK);
	if (*fd < 0) {
		fprintf(stderr, "kftsites: %s: %s\n", path, strerror(errno));
		return -1;
	}
	if (fstat(*fd, &st)) {
		fprintf(stderr, "kftsites: %s: %s\n", path, strerror(errno));
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		fprintf(stderr, "kftsites: %s: %s\n", path,
			S_ISDIR(st.st_mode) ? strerror(EISDIR) :
			"not a regular file (an ELF object cannot be read from a pipe or device)");
		return -1;
	}
	o->size = st.st_size;
	/* What libelf would call "invalid data" or no ELF, said plainly. */
	got = pread(*fd, ident, sizeof(ident), 0);
	if (!o->size) {
		fprintf(stderr, "kftsites: %s: an empty file, not an ELF object\n", path);
		return -1;
	}
	if (got < SELFMAG || memcmp(ident, ELFMAG, SELFMAG)) {
		fprintf(stderr, "kftsites: %s: not an ELF object\n", path);
		return -1;
	}
	ehsize = got == EI_NIDENT && ident[EI_CLASS] == ELFCLASS32 ?
		 sizeof(Elf32_Ehdr) : sizeof(Elf64_Ehdr);
	if (o->size < ehsize) {
		fprintf(stderr, "kftsites: %s: a truncated ELF file (%llu bytes, within its ELF header)\n",
			path, (unsigned long long)o->size);
		return -1;
	}
	o->elf = elf_begin(*fd, write ? ELF_C_RDWR : ELF_C_READ_MMAP, NULL);
	if (!o->elf || elf_kind(o->elf) != ELF_K_ELF)
		return fail(o, "not an ELF object");
	if (!gelf_getehdr(o->elf, &o->eh) || o->eh.e_type != ET_REL)
		return fail(o, "not a relocatable ELF object");
	o->is64 = gelf_getclass(o->elf) == ELFCLASS64;
	switch (o->eh.e_machine) {
	case EM_AARCH64:
	case EM_RISCV:
	case EM_X86_64:
		o->rela = true;
		break;
	case EM_ARM:
		o->rela = false;
		break;
	default:
		return fail(o, "machine not supported");
	}
	/* The kernels KFT runs on: 64-bit but for 32-bit arm (x32 is not). */
	if (o->is64 != (o->eh.e_machine != EM_ARM))
		return fail(o, o->eh.e_machine == EM_X86_64 ? "an x32 object: not supported" :
			    o->is64 ? "a 64-bit arm object: not supported" :
			    "a 32-bit object of a 64-bit machine: not supported");
	if (elf_getshdrstrndx(o->elf, &o->shstrndx) || find_symtab(o))
		return -1;
	if (!shstrtab_ok(o))
		return fail(o, "bad section name table");
	if (!links_ok(o))
		return fail(o, "a section links to a section that does not exist");
	return 0;
}

static int process(const char *path)
{
	struct object o = { .path = path };
	int fd, ret = -1, h;

	if (open_object(&o, path, &fd, true))
		goto out;
	h = has_tables(&o);
	if (h < 0)
		goto out;
	if (!o.symtab || h) {
		ret = 0;
		goto out;
	}
	if (index_symbols(&o) || find_sites(&o))
		goto out;
	if (verbose)
		printf("%s: %zu enter, %zu exit sites\n", path,
		       o.sites[ENTER].n, o.sites[EXIT].n);
	for (h = 0; h < NR_HOOKS; h++)
		if (o.sites[h].n && write_table(&o, h))
			goto out;
	/*
	 * elfutils writes e_shnum headers from the array it read, sized for
	 * the old count, unless the Elf is dirty, which a layout that keeps
	 * e_shoff where it was does not make it: mark it so.
	 */
	if ((o.sites[ENTER].n || o.sites[EXIT].n) &&
	    (elf_flagelf(o.elf, ELF_C_SET, ELF_F_DIRTY) == 0 ||
	     elf_update(o.elf, ELF_C_WRITE) < 0)) {
		fail(&o, "cannot write");
		goto out;
	}
	ret = 0;
out:
	for (h = 0; h < NR_HOOKS; h++)
		free(o.sites[h].v);
	free(o.sym_shndx);
	free(o.secsym);
	free(o.by_sec);
	if (o.elf)
		elf_end(o.elf);
	while (o.nbufs)
		free(o.bufs[--o.nbufs]);
	if (fd >= 0 && close(fd) && !ret) {
		fprintf(stderr, "kftsites: %s: %s\n", path, strerror(errno));
		ret = -1;
	}
	return ret;
}

/*
 * --reach: can the hooks call instrumented code?
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
 * --stop FUNC: FUNC is checked, but what it calls is not followed: where
 * the hooks hand over to code that runs when it cannot harm them (the
 * kernel's: irq_work_queue() at the end of a run, the scheduler once a
 * hook has done its work).  --allow FUNC: FUNC is neither checked nor
 * followed.
 */

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

/* What --reach is told: functions to stop at, or to allow. */
struct reach_opts {
	char **stop, **allow;
	int nstop, nallow;
	bool insns;		/* --insns instead */
};

struct reach {
	struct object *o;
	struct rsec *secs;
	struct node *nodes;	/* [0, nsorted): symbols, by section and start */
	size_t nnodes, nsorted, cap;
	struct mapsym *map;
	size_t nmap;
	struct alt *alts, *jumps;
	size_t nalts, njumps;
	size_t *queue;
	size_t nqueue, qcap;
	const struct reach_opts *opt;
	bool msb;		/* arm: big-endian code */
};

/* An instruction as --reach decodes it. */
struct insn {
	uint64_t len;
	bool branch;		/* a direct branch: to target */
	bool term;		/* straight-line code ends after it */
	uint64_t target;	/* in its section */
	uint64_t field;		/* where a relocation would give the target */
	bool thumb;		/* arm: the target is Thumb code */
};

/* Decoder state: riscv's last auipc. */
struct dstate {
	bool auipc;
	unsigned int auipc_rd;
	uint64_t auipc_off;
	int64_t auipc_imm;
};

static int64_t sext(uint64_t v, unsigned int bits)
{
	uint64_t m = 1ULL << (bits - 1);

	v &= (m << 1) - 1;
	return (int64_t)((v ^ m) - m);
}

static uint32_t rd16(const uint8_t *p, bool msb)
{
	return msb ? (uint32_t)p[0] << 8 | p[1] : (uint32_t)p[1] << 8 | p[0];
}

static uint32_t rd32(const uint8_t *p, bool msb)
{
	return msb ? rd16(p, true) << 16 | rd16(p + 2, true) :
		     rd16(p + 2, false) << 16 | rd16(p, false);
}

/*
 * x86_64 opcodes: does a ModRM byte follow, what immediate, is it a
 * prefix, a direct branch (its immediate the displacement), or not an
 * instruction (the escapes 0f, c4, c5, 62 and REX are taken apart first).
 */
enum {
	XI_B = 1, XI_W, XI_Z, XI_WB, XI_MOFFS, XI_V, XI_GRP3,	/* immediates */
	XM = 0x10,		/* ModRM */
	XP = 0x20,		/* prefix */
	XX = 0x40,		/* not an instruction in 64-bit mode */
	XJ = 0x80,		/* direct branch: rel8 (XI_B) or rel32 (XI_Z) */
};

#define M_	XM
#define MB	(XM | XI_B)
#define MZ	(XM | XI_Z)
#define B_	XI_B
#define Z_	XI_Z
#define JB	(XJ | XI_B)
#define JZ	(XJ | XI_Z)
#define X_	XX
#define P_	XP
static const uint8_t x86_op1[256] = {
	M_, M_, M_, M_, B_, Z_, X_, X_, M_, M_, M_, M_, B_, Z_, X_, X_,	/* 00 */
	M_, M_, M_, M_, B_, Z_, X_, X_, M_, M_, M_, M_, B_, Z_, X_, X_,	/* 10 */
	M_, M_, M_, M_, B_, Z_, P_, X_, M_, M_, M_, M_, B_, Z_, P_, X_,	/* 20 */
	M_, M_, M_, M_, B_, Z_, P_, X_, M_, M_, M_, M_, B_, Z_, P_, X_,	/* 30 */
	X_, X_, X_, X_, X_, X_, X_, X_, X_, X_, X_, X_, X_, X_, X_, X_,	/* 40 REX */
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,			/* 50 */
	X_, X_, X_, M_, P_, P_, P_, P_, Z_, MZ, B_, MB, 0, 0, 0, 0,	/* 60 */
	JB, JB, JB, JB, JB, JB, JB, JB, JB, JB, JB, JB, JB, JB, JB, JB,	/* 70 */
	MB, MZ, X_, MB, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_,	/* 80 */
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, X_, 0, 0, 0, 0, 0,		/* 90 */
	XI_MOFFS, XI_MOFFS, XI_MOFFS, XI_MOFFS, 0, 0, 0, 0,		/* a0 */
	B_, Z_, 0, 0, 0, 0, 0, 0,
	B_, B_, B_, B_, B_, B_, B_, B_,					/* b0 */
	XI_V, XI_V, XI_V, XI_V, XI_V, XI_V, XI_V, XI_V,
	MB, MB, XI_W, 0, X_, X_, MB, MZ, XI_WB, 0, XI_W, 0, 0, B_, X_, 0, /* c0 */
	M_, M_, M_, M_, X_, X_, X_, 0, M_, M_, M_, M_, M_, M_, M_, M_,	/* d0 */
	JB, JB, JB, JB, B_, B_, B_, B_, JZ, JZ, X_, JB, 0, 0, 0, 0,	/* e0 */
	P_, 0, P_, P_, 0, 0, XM | XI_GRP3, XM | XI_GRP3,		/* f0 */
	0, 0, 0, 0, 0, 0, M_, M_,
};

/* After 0f (0f 38 and 0f 3a are taken apart first). */
static const uint8_t x86_op2[256] = {
	M_, M_, M_, M_, X_, 0, 0, 0, 0, 0, X_, 0, X_, M_, 0, MB,	/* 00 */
	M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_,	/* 10 */
	M_, M_, M_, M_, X_, X_, X_, X_, M_, M_, M_, M_, M_, M_, M_, M_,	/* 20 */
	0, 0, 0, 0, 0, 0, X_, 0, X_, X_, X_, X_, X_, X_, X_, X_,	/* 30 */
	M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_,	/* 40 */
	M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_,	/* 50 */
	M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_,	/* 60 */
	MB, MB, MB, MB, M_, M_, M_, 0, M_, M_, X_, X_, M_, M_, M_, M_,	/* 70 */
	JZ, JZ, JZ, JZ, JZ, JZ, JZ, JZ, JZ, JZ, JZ, JZ, JZ, JZ, JZ, JZ,	/* 80 */
	M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_,	/* 90 */
	0, 0, 0, M_, MB, M_, X_, X_, 0, 0, 0, M_, MB, M_, M_, M_,	/* a0 */
	M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, MB, M_, M_, M_, M_, M_,	/* b0 */
	M_, M_, MB, M_, MB, MB, MB, M_, 0, 0, 0, 0, 0, 0, 0, 0,		/* c0 */
	M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_,	/* d0 */
	M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_,	/* e0 */
	M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_,	/* f0 */
};
#undef M_
#undef MB
#undef MZ
#undef B_
#undef Z_
#undef JB
#undef JZ
#undef X_
#undef P_

/* x86_64: the instruction at off (n bytes left); -1 if it cannot be one. */
static int x86_insn(const uint8_t *p, uint64_t n, uint64_t off, struct insn *in)
{
	bool o16 = false, a32 = false, w = false;
	unsigned int op, f, map = 0, m = 0, i = 0, imm = 0, disp = 0;

	if (n > 15)
		n = 15;
	for (;; i++) {
		if (i >= n)
			return -1;
		op = p[i];
		if ((op & 0xf0) == 0x40) {		/* REX */
			w = op & 8;
		} else if (x86_op1[op] == XP) {
			w = false;			/* REX counts only last */
			o16 |= op == 0x66;
			a32 |= op == 0x67;
		} else {
			break;
		}
	}
	i++;
	if (op == 0x0f) {
		if (i >= n)
			return -1;
		op = p[i++];
		map = 1;
		if (op == 0x38 || op == 0x3a) {
			f = XM | (op == 0x3a ? XI_B : 0);
			map = 2;
			if (i++ >= n)
				return -1;
		} else {
			f = x86_op2[op];
		}
	} else if (op == 0xc4 || op == 0xc5 || op == 0x62) {	/* VEX, EVEX */
		unsigned int len = op == 0xc5 ? 1 : op == 0xc4 ? 2 : 3, vmap;

		if (i + len >= n)
			return -1;
		vmap = op == 0xc5 ? 1 : p[i] & (op == 0x62 ? 7 : 0x1f);
		f = XM;
		if (op != 0x62 && vmap == 1 && p[i + len] == 0x77)
			f = 0;				/* vzeroupper, vzeroall */
		op = p[i + len];
		i += len + 1;
		if (vmap == 3 || (vmap == 1 && ((op >= 0x70 && op <= 0x73) ||
						op == 0xc2 ||
						(op >= 0xc4 && op <= 0xc6))))
			f |= XI_B;
		map = 2;
	} else {
		f = x86_op1[op];
	}
	if (f & XX)
		return -1;
	if (f & XM) {
		if (i >= n)
			return -1;
		m = p[i++];
		if (m >> 6 != 3) {
			if ((m & 7) == 4) {		/* SIB */
				if (i >= n)
					return -1;
				if (m >> 6 == 0 && (p[i] & 7) == 5)
					disp = 4;
				i++;
			}
			if (m >> 6 == 0 && (m & 7) == 5)
				disp = 4;		/* RIP-relative */
			else if (m >> 6 == 1)
				disp = 1;
			else if (m >> 6 == 2)
				disp = 4;
		}
		i += disp;
	}
	switch (f & 0x0f) {
	case XI_B:
		imm = 1;
		break;
	case XI_W:
		imm = 2;
		break;
	case XI_Z:			/* a branch's rel32 stays 4 with 66 */
		imm = o16 && !(f & XJ) ? 2 : 4;
		break;
	case XI_WB:
		imm = 3;
		break;
	case XI_MOFFS:
		imm = a32 ? 4 : 8;
		break;
	case XI_V:
		imm = w ? 8 : o16 ? 2 : 4;
		break;
	case XI_GRP3:			/* test r/m, imm: f6 /0, /1, f7 /0, /1 */
		if (((m >> 3) & 7) < 2)
			imm = op == 0xf6 ? 1 : o16 ? 2 : 4;
		break;
	}
	i += imm;
	if (i > n)
		return -1;
	in->len = i;
	if (f & XJ) {
		int64_t d = imm == 1 ? (int8_t)p[i - 1] :
			    (int32_t)((uint32_t)p[i - 4] | (uint32_t)p[i - 3] << 8 |
				      (uint32_t)p[i - 2] << 16 | (uint32_t)p[i - 1] << 24);

		in->branch = true;
		in->target = off + i + d;
		in->field = off + i - imm;
	}
	/* ret, jmp, int3, ud2, jmp *r/m */
	in->term = (map == 0 && (op == 0xc3 || op == 0xc2 || op == 0xcb ||
				 op == 0xca || op == 0xcc || op == 0xe9 ||
				 op == 0xeb ||
				 (op == 0xff && ((m >> 3) & 7) >= 4 &&
				  ((m >> 3) & 7) <= 5))) ||
		   (map == 1 && op == 0x0b);
	return 0;
}

/* arm64: B, BL, B.cond, CBZ, CBNZ, TBZ, TBNZ; RET and BR end code. */
static void a64_insn(const uint8_t *p, uint64_t off, struct insn *in)
{
	uint32_t x = rd32(p, false);
	int64_t d;

	in->len = 4;
	if ((x & 0x7c000000) == 0x14000000) {
		d = sext(x, 26) * 4;
		in->term = !(x >> 31);
	} else if ((x & 0xff000010) == 0x54000000 ||
		   (x & 0x7e000000) == 0x34000000) {
		d = sext(x >> 5, 19) * 4;
	} else if ((x & 0x7e000000) == 0x36000000) {
		d = sext(x >> 5, 14) * 4;
	} else {
		in->term = (x & 0xfffffc1f) == 0xd65f0000 ||
			   (x & 0xfffffc1f) == 0xd61f0000;
		return;
	}
	in->branch = true;
	in->target = off + d;
	in->field = off;
}

/*
 * riscv64: JAL, branches, C.J, C.BEQZ, C.BNEZ, and AUIPC+JALR pairs (whose
 * relocation is at the AUIPC); -1 if the instruction is cut off.
 */
static int rv_insn(const uint8_t *p, uint64_t n, uint64_t off,
		   struct dstate *st, struct insn *in)
{
	bool auipc = st->auipc;
	uint32_t x, h;
	unsigned int rd;

	st->auipc = false;
	if (n < 2)
		return -1;
	h = rd16(p, false);
	if ((h & 3) != 3) {
		in->len = 2;
		if ((h & 0xe003) == 0xa001) {		/* c.j */
			in->target = off + sext((h >> 1 & 0x800) | (h >> 7 & 0x10) |
						(h >> 1 & 0x300) | (h << 2 & 0x400) |
						(h >> 1 & 0x40) | (h << 1 & 0x80) |
						(h >> 2 & 0xe) | (h << 3 & 0x20), 12);
			in->branch = in->term = true;
		} else if ((h & 0xc003) == 0xc001) {	/* c.beqz, c.bnez */
			in->target = off + sext((h >> 4 & 0x100) | (h >> 7 & 0x18) |
						(h << 1 & 0xc0) | (h >> 2 & 0x6) |
						(h << 3 & 0x20), 9);
			in->branch = true;
		} else if ((h & 0xf07f) == 0x8002 && (h & 0xf80)) {
			in->term = true;		/* c.jr */
		}
		in->field = off;
		return 0;
	}
	if (n < 4)
		return -1;
	x = rd32(p, false);
	rd = x >> 7 & 31;
	in->len = 4;
	in->field = off;
	switch (x & 0x7f) {
	case 0x6f:					/* jal */
		in->target = off + sext((x >> 11 & 0x100000) | (x >> 20 & 0x7fe) |
					(x >> 9 & 0x800) | (x & 0xff000), 21);
		in->branch = true;
		in->term = !rd;
		break;
	case 0x63:					/* beq, bne, ... */
		in->target = off + sext((x >> 19 & 0x1000) | (x >> 20 & 0x7e0) |
					(x >> 7 & 0x1e) | (x << 4 & 0x800), 13);
		in->branch = true;
		break;
	case 0x17:					/* auipc */
		st->auipc = true;
		st->auipc_rd = rd;
		st->auipc_off = off;
		st->auipc_imm = sext(x & 0xfffff000, 32);
		break;
	case 0x67:					/* jalr */
		if (auipc && st->auipc_rd && st->auipc_rd == (x >> 15 & 31)) {
			in->target = st->auipc_off + st->auipc_imm + sext(x >> 20, 12);
			in->field = st->auipc_off;
			in->branch = true;
		}
		in->term = !rd;
		break;
	}
	return 0;
}

/*
 * arm: B, BL, BLX and, in Thumb, B.W, B<c>.W, CBZ, CBNZ; BX and POP {pc}
 * end code.  -1 if the instruction is cut off.
 */
static int arm_insn(const uint8_t *p, uint64_t n, uint64_t off, bool thumb,
		    bool msb, struct insn *in)
{
	uint32_t x, h1, h2;

	in->field = off;
	if (n < (thumb ? 2 : 4))
		return -1;
	if (!thumb) {
		x = rd32(p, msb);
		in->len = 4;
		if ((x & 0x0e000000) == 0x0a000000) {
			in->target = off + 8 + sext(x, 24) * 4;
			if (x >> 28 == 0xf) {		/* blx: H */
				in->target += x >> 23 & 2;
				in->thumb = true;
			}
			in->branch = true;
			in->term = x >> 24 == 0xea;
		} else {
			in->term = (x & 0xfffffff0) == 0xe12fff10 ||	/* bx */
				   (x & 0xffff8000) == 0xe8bd8000;	/* pop {..., pc} */
		}
		return 0;
	}
	h1 = rd16(p, msb);
	in->len = 2;
	in->thumb = true;
	if (h1 >> 11 >= 0x1d) {				/* 32-bit */
		uint32_t s, j1, j2;

		if (n < 4)
			return -1;
		h2 = rd16(p + 2, msb);
		in->len = 4;
		if ((h1 & 0xf800) != 0xf000 || !(h2 & 0x8000))
			return 0;
		s = h1 >> 10 & 1;
		j1 = h2 >> 13 & 1;
		j2 = h2 >> 11 & 1;
		if (h2 & 0x1000 || (h2 & 0x4001) == 0x4000) {	/* bl, b.w, blx */
			uint64_t base = off + 4;

			if (!(h2 & 0x1000)) {
				base &= ~3ULL;		/* blx: to arm */
				in->thumb = false;
			}
			in->target = base + sext(s << 24 | (!(j1 ^ s)) << 23 |
						 (!(j2 ^ s)) << 22 | (h1 & 0x3ff) << 12 |
						 (h2 & 0x7ff) << 1, 25);
			in->branch = true;
			in->term = (h2 & 0x5000) == 0x1000;
		} else if (!(h2 & 0x5000) && (h1 >> 7 & 7) != 7) {	/* b<c>.w */
			in->target = off + 4 + sext(s << 20 | j2 << 19 | j1 << 18 |
						    (h1 & 0x3f) << 12 |
						    (h2 & 0x7ff) << 1, 21);
			in->branch = true;
		}
		return 0;
	}
	if ((h1 & 0xf000) == 0xd000 && (h1 >> 8 & 0xf) < 0xe) {	/* b<c> */
		in->target = off + 4 + sext(h1, 8) * 2;
		in->branch = true;
	} else if ((h1 & 0xf800) == 0xe000) {			/* b */
		in->target = off + 4 + sext(h1, 11) * 2;
		in->branch = in->term = true;
	} else if ((h1 & 0xf500) == 0xb100) {			/* cbz, cbnz */
		in->target = off + 4 + ((h1 >> 3 & 0x40) | (h1 >> 2 & 0x3e));
		in->branch = true;
	} else {
		in->term = (h1 & 0xff87) == 0x4700 ||		/* bx */
			   (h1 & 0xff00) == 0xbd00;		/* pop {..., pc} */
	}
	return 0;
}

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
 * A branch relocation: to a hook, to a symbol outside the object (not
 * followed), or to code of the object.  disp: the branch's displacement
 * from its relocation's symbol (the addend, as the architecture counts it).
 */
static int edge_rel(struct reach *r, struct edges *e, const struct rel_ent *rel,
		    int64_t disp)
{
	const struct object *o = r->o;
	GElf_Sym sym;
	uint64_t base;
	bool thumb = false;

	if (is_hook(o, rel->sym)) {
		e->hook = true;
		return 0;
	}
	if (!gelf_getsym(o->syms, rel->sym, &sym) || !o->sym_shndx[rel->sym])
		return 0;		/* undefined: not in this object */
	base = sym.st_value;
	if (GELF_ST_TYPE(sym.st_info) != STT_SECTION) {
		if (o->eh.e_machine == EM_ARM && GELF_ST_TYPE(sym.st_info) == STT_FUNC) {
			thumb = base & 1;
			base &= ~1ULL;
		}
		/* A call to a function is to the function, addend or not. */
		if (disp >= -8 && disp <= 8)
			disp = 0;
	}
	return edge_to(r, e, o->sym_shndx[rel->sym], base + disp, thumb);
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
		return fail(o, "out of memory");
	while ((scn = elf_nextscn(o->elf, scn))) {
		size_t ndx = elf_ndxscn(scn);
		GElf_Shdr sh;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || ndx >= o->nsecs)
			return fail(o, "bad section header");
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
			return fail(o, "bad section header");
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
				return fail(o, "bad relocation");
			if (GELF_R_SYM(rela.r_info) >= o->nsyms)
				return fail(o, "relocation against a missing symbol");
			if (!branch_type(o, GELF_R_TYPE(rela.r_info)))
				continue;
			if (!(s->nrels & (s->nrels + 1)) || !s->rels) {
				/* at 0, 1, 3, 7...: grow to twice */
				v = realloc(s->rels, 2 * (s->nrels + 1) * sizeof(*v));
				if (!v)
					return fail(o, "out of memory");
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
						return fail(o, "out of memory");
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
				return fail(o, "out of memory");
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
 * REL keeps the addend in the table.
 */
static int read_table(struct reach *r, const char *name, size_t entsize,
		      size_t len_off, struct alt **out, size_t *nout)
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
		return fail(o, "out of memory");
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
				return fail(o, "bad relocation");
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
	/* Both ends known: else dropped. */
	for (i = n = 0; i < nent; i++)
		if (v[i].orig_sec && v[i].repl_sec &&
		    v[i].len <= r->secs[v[i].repl_sec].size)
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
		       &r->alts, &r->nalts))
		return -1;
	return read_table(r, "__jump_table", r->o->is64 ? 16 : 12, 0,
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
	if (verbose) {
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
	return fail(r->o, "out of memory");
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
 * --reach (or --insns): 0 if the hooks reach nothing instrumented, 1 if
 * they do, -1 on an error.
 */
static int reach(const char *path, const struct reach_opts *opt)
{
	static const struct reach_opts none;
	struct object o = { .path = path };
	struct reach r = { .o = &o, .opt = opt ? opt : &none };
	int fd, ret = -1;
	size_t i;

	if (open_object(&o, path, &fd, false))
		goto out;
	if (!o.symtab) {
		fail(&o, "no symbol table");
		goto out;
	}
	r.msb = o.eh.e_ident[EI_DATA] == ELFDATA2MSB;
	if (index_symbols(&o) || reach_index(&r) || reach_tables(&r))
		goto out;
	if (r.opt->insns) {
		reach_insns(&r);
		ret = 0;
	} else {
		ret = reach_walk(&r);
	}
out:
	for (i = 0; r.secs && i < o.nsecs; i++)
		free(r.secs[i].rels);
	for (i = r.nsorted; i < r.nnodes; i++)
		free(r.nodes[i].label);
	free(r.secs);
	free(r.nodes);
	free(r.map);
	free(r.alts);
	free(r.jumps);
	free(r.queue);
	free(o.sym_shndx);
	free(o.secsym);
	free(o.by_sec);
	if (o.elf)
		elf_end(o.elf);
	if (fd >= 0)
		close(fd);
	return ret;
}

int main(int argc, char **argv)
{
	int i = 1, ret = 0;
	bool check = false;
	struct reach_opts opt = {
		.stop = calloc(argc, sizeof(char *)),
		.allow = calloc(argc, sizeof(char *)),
	};

	if (!opt.stop || !opt.allow) {
		fprintf(stderr, "kftsites: out of memory\n");
		ret = 1;
		goto out;
	}
	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "-v") || !strcmp(argv[i], "--verbose")) {
			verbose = true;
		} else if (!strcmp(argv[i], "--reach")) {
			check = true;
		} else if (!strcmp(argv[i], "--insns")) {
			opt.insns = true;
		} else if (!strcmp(argv[i], "--stop") && i + 1 < argc) {
			opt.stop[opt.nstop++] = argv[++i];
		} else if (!strcmp(argv[i], "--allow") && i + 1 < argc) {
			opt.allow[opt.nallow++] = argv[++i];
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			usage(stdout);
			goto out;
		} else {
			if (strcmp(argv[i], "--")) {
				usage(stderr);
				ret = 2;
				goto out;
			}
			i++;
			break;
		}
	}
	if (i == argc || ((opt.nstop || opt.nallow) && !check) ||
	    (check && opt.insns)) {
		usage(stderr);
		ret = 2;
		goto out;
	}
	if (elf_version(EV_CURRENT) == EV_NONE) {
		fprintf(stderr, "kftsites: libelf: %s\n", elf_errmsg(-1));
		ret = 1;
		goto out;
	}
	for (; i < argc; i++)
		if (check || opt.insns ? reach(argv[i], &opt) : process(argv[i]))
			ret = 1;
out:
	free(opt.stop);
	free(opt.allow);
	return ret;
}
