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
 * (a branch, not a branch and link) is also the function's return: it is
 * left out, and stays a call.
 *
 *   arm64   R_AARCH64_CALL26 (JUMP26: tail call)
 *   arm     R_ARM_CALL, R_ARM_THM_CALL (JUMP24, THM_JUMP24: tail calls)
 *   riscv   R_RISCV_CALL(_PLT) whose JALR links to ra (x0: tail call)
 *   x86_64  R_X86_64_PLT32/PC32 after a CALL opcode (JMP: tail call)
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
#ifndef R_AARCH64_ABS64
#define R_AARCH64_ABS64		257
#endif
#ifndef R_ARM_THM_CALL
#define R_ARM_THM_CALL		10	/* glibc: R_ARM_THM_PC22 */
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
		"Add __kft_enter_loc and __kft_exit_loc, the addresses of the calls\n"
		"to KFT's hooks, to each relocatable ELF object (arm64, arm, riscv,\n"
		"x86_64).  Objects that call no hook, or have the sections, are left\n"
		"as they are.\n"
		"\n"
		"  -v, --verbose   say how many sites each object has\n"
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
 * Is the relocation at off in text a call (not a tail call) of the
 * architecture?  -1: malformed.
 */
static int is_call(const struct object *o, Elf_Scn *text, unsigned int type,
		   uint64_t off)
{
	const uint8_t *p;

	switch (o->eh.e_machine) {
	case EM_AARCH64:
		return type == R_AARCH64_CALL26;
	case EM_ARM:
		return type == R_ARM_CALL || type == R_ARM_THM_CALL;
	case EM_RISCV:
		if (type != R_RISCV_CALL && type != R_RISCV_CALL_PLT)
			return 0;
		/* auipc; jalr rd: bits 7-11 of the jalr are rd, 1 is ra. */
		p = sec_bytes(text, off + 4, 4);
		if (!p)
			return -1;
		return ((p[0] >> 7 | p[1] << 1) & 0x1f) == 1;
	case EM_X86_64:
		if (type != R_X86_64_PLT32 && type != R_X86_64_PC32)
			return 0;
		if (!off)
			return -1;
		p = sec_bytes(text, off - 1, 1);
		if (!p)
			return -1;
		return *p == 0xe8;	/* CALL rel32; 0xe9 is JMP */
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
			call = is_call(o, text, GELF_R_TYPE(r.r_info), r.r_offset);
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

static int process(const char *path)
{
	struct object o = { .path = path };
	int fd = open(path, O_RDWR), ret = -1, h;
	struct stat st;

	if (fd < 0) {
		fprintf(stderr, "kftsites: %s: %s\n", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st)) {
		fprintf(stderr, "kftsites: %s: %s\n", path, strerror(errno));
		close(fd);
		return -1;
	}
	o.size = st.st_size;
	o.elf = elf_begin(fd, ELF_C_RDWR, NULL);
	if (!o.elf || elf_kind(o.elf) != ELF_K_ELF) {
		fail(&o, "not an ELF object");
		goto out;
	}
	if (!gelf_getehdr(o.elf, &o.eh) || o.eh.e_type != ET_REL) {
		fail(&o, "not a relocatable ELF object");
		goto out;
	}
	o.is64 = gelf_getclass(o.elf) == ELFCLASS64;
	switch (o.eh.e_machine) {
	case EM_AARCH64:
	case EM_RISCV:
	case EM_X86_64:
		o.rela = true;
		break;
	case EM_ARM:
		o.rela = false;
		break;
	default:
		fail(&o, "machine not supported");
		goto out;
	}
	/* The kernels KFT runs on: 64-bit but for 32-bit arm (x32 is not). */
	if (o.is64 != (o.eh.e_machine != EM_ARM)) {
		fail(&o, o.eh.e_machine == EM_X86_64 ? "an x32 object: not supported" :
			 o.is64 ? "a 64-bit arm object: not supported" :
			 "a 32-bit object of a 64-bit machine: not supported");
		goto out;
	}
	if (elf_getshdrstrndx(o.elf, &o.shstrndx) || find_symtab(&o))
		goto out;
	if (!shstrtab_ok(&o)) {
		fail(&o, "bad section name table");
		goto out;
	}
	if (!links_ok(&o)) {
		fail(&o, "a section links to a section that does not exist");
		goto out;
	}
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
	if (close(fd) && !ret) {
		fprintf(stderr, "kftsites: %s: %s\n", path, strerror(errno));
		ret = -1;
	}
	return ret;
}

int main(int argc, char **argv)
{
	int i = 1, ret = 0;

	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "-v") || !strcmp(argv[i], "--verbose")) {
			verbose = true;
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			usage(stdout);
			return 0;
		} else {
			if (strcmp(argv[i], "--")) {
				usage(stderr);
				return 2;
			}
			i++;
			break;
		}
	}
	if (i == argc) {
		usage(stderr);
		return 2;
	}
	if (elf_version(EV_CURRENT) == EV_NONE) {
		fprintf(stderr, "kftsites: libelf: %s\n", elf_errmsg(-1));
		return 1;
	}
	for (; i < argc; i++)
		if (process(argv[i]))
			ret = 1;
	return ret;
}
