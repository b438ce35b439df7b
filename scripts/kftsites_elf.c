// SPDX-License-Identifier: GPL-2.0
/*
 * kftsites' object: a relocatable ELF file opened and checked (a machine
 * KFT runs on, every section within the file, links that hold), its
 * symbols indexed by section and value, its relocations and section names
 * read.  For the lister (kftsites.c) and the model of the code
 * (kftsites_code.c); libelf alone.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "kftsites_shared.h"

#define MAX_ALIGN	65536	/* no compiler aligns a section more */

const char *const hook_name[NR_HOOKS] = {
	"__cyg_profile_func_enter", "__cyg_profile_func_exit",
};

int obj_fail(const struct object *o, const char *what)
{
	/* elf_errno() clears the error it returns: read it once. */
	int e = elf_errno();

	fprintf(stderr, "kftsites: %s: %s%s%s\n", o->path, what,
		e ? ": " : "", e ? elf_errmsg(e) : "");
	return -1;
}

const char *sec_name(const struct object *o, Elf_Scn *scn)
{
	GElf_Shdr sh;

	if (!gelf_getshdr(scn, &sh))
		return NULL;
	return elf_strptr(o->elf, o->shstrndx, sh.sh_name);
}

/* The bytes of a section at off, or NULL past its end. */
const uint8_t *sec_bytes(Elf_Scn *scn, uint64_t off, size_t len)
{
	Elf_Data *d = elf_getdata(scn, NULL);

	if (!d || !d->d_buf || off > d->d_size || d->d_size - off < len)
		return NULL;
	return (const uint8_t *)d->d_buf + off;
}

/* Which hook a symbol is, or NR_HOOKS. */
enum hook hook_of(const struct object *o, size_t ndx)
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
int index_symbols(struct object *o)
{
	Elf_Data *xndx = NULL;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	size_t i;

	if (elf_getshdrnum(o->elf, &o->nsecs))
		return obj_fail(o, "bad section headers");
	while ((scn = elf_nextscn(o->elf, scn)))
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB_SHNDX &&
		    sh.sh_link == o->symtab_ndx)
			xndx = elf_getdata(scn, NULL);
	o->sym_shndx = calloc(o->nsyms + 1, sizeof(*o->sym_shndx));
	o->secsym = calloc(o->nsecs + 1, sizeof(*o->secsym));
	o->by_sec = calloc(o->nsyms + 1, sizeof(*o->by_sec));
	if (!o->sym_shndx || !o->secsym || !o->by_sec)
		return obj_fail(o, "out of memory");
	for (i = 1; i < o->nsyms; i++) {
		GElf_Word x = 0;
		GElf_Sym sym;
		size_t shndx;

		if (!gelf_getsymshndx(o->syms, xndx, i, &sym, &x))
			return obj_fail(o, "bad symbol");
		shndx = sym.st_shndx == SHN_XINDEX ? x : sym.st_shndx;
		if (sym.st_shndx == SHN_XINDEX && (!xndx || !x || x >= o->nsecs))
			return obj_fail(o, "a symbol's extended section index is missing or past the sections");
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
size_t section_symbol(const struct object *o, size_t shndx)
{
	return shndx < o->nsecs ? o->secsym[shndx] : 0;
}

/*
 * Without a section symbol: the defined, non-weak symbol of section shndx
 * nearest below off (a weak one could be replaced by another object's);
 * of several at one value, the first.  Sets *addend.
 */
int nearest_symbol(const struct object *o, size_t shndx, uint64_t off,
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
bool get_reloc(Elf_Data *d, bool rela, size_t i, GElf_Rela *r)
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
		return obj_fail(o, "truncated or bad section headers");
	for (i = 1; i < shnum; i++) {
		scn = elf_getscn(o->elf, i);
		if (!scn || !gelf_getshdr(scn, &sh))
			return obj_fail(o, "truncated or bad section headers");
		if (sh.sh_type != SHT_NOBITS &&
		    (sh.sh_offset > o->size || o->size - sh.sh_offset < sh.sh_size))
			return obj_fail(o, "truncated or bad section");
		/* Rewriting pads every section to its alignment. */
		if (sh.sh_addralign > MAX_ALIGN)
			return obj_fail(o, "section aligned beyond 64 KiB");
	}
	scn = NULL;
	while ((scn = elf_nextscn(o->elf, scn))) {
		if (!gelf_getshdr(scn, &sh))
			return obj_fail(o, "bad section header");
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
int open_object(struct object *o, const char *path, int *fd, bool write)
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
		return obj_fail(o, "not an ELF object");
	if (!gelf_getehdr(o->elf, &o->eh) || o->eh.e_type != ET_REL)
		return obj_fail(o, "not a relocatable ELF object");
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
		return obj_fail(o, "machine not supported");
	}
	/* The kernels KFT runs on: 64-bit but for 32-bit arm (x32 is not). */
	if (o->is64 != (o->eh.e_machine != EM_ARM))
		return obj_fail(o, o->eh.e_machine == EM_X86_64 ? "an x32 object: not supported" :
			    o->is64 ? "a 64-bit arm object: not supported" :
			    "a 32-bit object of a 64-bit machine: not supported");
	if (elf_getshdrstrndx(o->elf, &o->shstrndx) || find_symtab(o))
		return -1;
	if (!shstrtab_ok(o))
		return obj_fail(o, "bad section name table");
	if (!links_ok(o))
		return obj_fail(o, "a section links to a section that does not exist");
	return 0;
}
