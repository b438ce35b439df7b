// SPDX-License-Identifier: GPL-2.0
/*
 * bench/realcpu: the driver.  Lua 5.4 (Debian's lua5.4 source, built by
 * realcpu.sh) runs a few phases of different character, each a function
 * of this file that calls one Lua function; each phase is timed with the
 * TSC around its call.  Built, with Lua, three ways (realcpu.sh): (a) not
 * instrumented, (b) -finstrument-functions with empty hooks, (c) with
 * KFT's engine as the hooks: then a run of the config given is started
 * before the first phase and stopped after the last, and its log written
 * (the header and the phases' lines), for kd to read back.
 *
 * usage: driver [-s SCALE] [-r REPEATS] [-k CONFIG LOG]
 * Each phase is run REPEATS times (default 5), the phases in turn; prints
 * "tsc_hz HZ" then, per phase, "phase NAME CYCLES CLEAN": the fewest
 * cycles a repeat took of the CLEAN repeats that ran without a context
 * switch (getrusage()), or of all if none did.  The CPU is shared: a
 * repeat another task took the CPU from is not the program's time.  With
 * -k, the log keeps the clean repeats' lines of each phase (all if none).
 */
#include <stdio.h>
#include <sys/resource.h>
#include <stdlib.h>
#include <string.h>
#include <x86intrin.h>

#include "lauxlib.h"
#include "lua.h"
#include "lualib.h"

#include "realcpu.h"

static const char script[] =
	"function fib(n) if n < 2 then return n end return fib(n - 1) + fib(n - 2) end\n"
	"function phase_fib(s) return fib(22 + s) end\n"
	"local function tree(d)\n"
	"  if d == 0 then return {} end\n"
	"  return { tree(d - 1), tree(d - 1) }\n"
	"end\n"
	"local function check(t)\n"
	"  if not t[1] then return 1 end\n"
	"  return 1 + check(t[1]) + check(t[2])\n"
	"end\n"
	"function phase_trees(s)\n"
	"  local n = 0\n"
	"  for i = 1, 2 * s do n = n + check(tree(12)) end\n"
	"  return n\n"
	"end\n"
	"function phase_strings(s)\n"
	"  local n = 0\n"
	"  for r = 1, s do\n"
	"    local t = {}\n"
	"    for i = 1, 2000 do t[#t + 1] = string.format('%d:%s', i, string.rep('x', i % 7)) end\n"
	"    local str = table.concat(t, ',')\n"
	"    str = str:gsub('x+', function(m) return #m end)\n"
	"    for w in str:gmatch('[^,]+') do n = n + #w end\n"
	"  end\n"
	"  return n\n"
	"end\n"
	"function phase_sort(s)\n"
	"  math.randomseed(42)\n"
	"  local n = 0\n"
	"  for r = 1, s do\n"
	"    local t = {}\n"
	"    for i = 1, 3000 do t[i] = { k = math.random(1000000) } end\n"
	"    table.sort(t, function(a, b) return a.k < b.k end)\n"
	"    n = n + t[1].k\n"
	"  end\n"
	"  return n\n"
	"end\n";

static int scale = 1;

/* Context switches of this process so far. */
static long switches(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);	/* one thread */
	return ru.ru_nvcsw + ru.ru_nivcsw;
}
static int repeats = 5;

static void call(lua_State *L, const char *fn)
{
	lua_getglobal(L, fn);
	lua_pushinteger(L, scale);
	if (lua_pcall(L, 1, 1, 0) != LUA_OK) {
		fprintf(stderr, "realcpu: %s: %s\n", fn, lua_tostring(L, -1));
		exit(2);
	}
	lua_pop(L, 1);
}

/* The phases: what a KFT user would look for in the log. */
__attribute__((noinline)) void phase_fib(lua_State *L)
{
	call(L, "phase_fib");
}

__attribute__((noinline)) void phase_trees(lua_State *L)
{
	call(L, "phase_trees");
}

__attribute__((noinline)) void phase_strings(lua_State *L)
{
	call(L, "phase_strings");
}

__attribute__((noinline)) void phase_sort(lua_State *L)
{
	call(L, "phase_sort");
}

static const struct {
	const char *name;
	void (*fn)(lua_State *L);
} phases[] = {
	{ "phase_fib", phase_fib },
	{ "phase_trees", phase_trees },
	{ "phase_strings", phase_strings },
	{ "phase_sort", phase_sort },
};
#define NPHASES (int)(sizeof(phases) / sizeof(phases[0]))

int main(int argc, char **argv)
{
	unsigned long long cycles[NPHASES], all[NPHASES], clean[NPHASES], t0, t;
	const char *config = NULL, *log = NULL;
	void *keep[NPHASES];
	lua_State *L;
	int i, p, r, nclean;
	long sw;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-s") && i + 1 < argc) {
			scale = atoi(argv[++i]);
		} else if (!strcmp(argv[i], "-r") && i + 1 < argc) {
			repeats = atoi(argv[++i]);
		} else if (!strcmp(argv[i], "-k") && i + 2 < argc) {
			config = argv[++i];
			log = argv[++i];
		} else {
			fprintf(stderr, "usage: driver [-s SCALE] [-r REPEATS] [-k CONFIG LOG]\n");
			return 2;
		}
	}
	if (scale < 1 || scale > 100 || repeats < 1 || repeats > 64) {
		fprintf(stderr, "realcpu: -s SCALE: 1 to 100, -r REPEATS: 1 to 64\n");
		return 2;
	}
	if (config && !realcpu_kft()) {
		fprintf(stderr, "realcpu: -k: this driver has no KFT\n");
		return 2;
	}
	printf("tsc_hz %.0f\n", realcpu_tsc_hz());
	L = luaL_newstate();
	luaL_openlibs(L);
	if (luaL_dostring(L, script) != LUA_OK) {
		fprintf(stderr, "realcpu: %s\n", lua_tostring(L, -1));
		return 2;
	}
	/* Warm: the first phase should not pay for the first page faults. */
	lua_gc(L, LUA_GCCOLLECT);
	if (config)
		realcpu_kft_start(config);
	for (p = 0; p < NPHASES; p++) {
		cycles[p] = all[p] = ~0ULL;
		clean[p] = 0;
		keep[p] = (void *)phases[p].fn;
	}
	for (r = 0; r < repeats; r++) {
		for (p = 0; p < NPHASES; p++) {
			sw = switches();
			t0 = __rdtsc();
			phases[p].fn(L);
			t = __rdtsc() - t0;
			if (t < all[p])
				all[p] = t;
			if (switches() != sw)
				continue;
			clean[p] |= 1ULL << r;
			if (t < cycles[p])
				cycles[p] = t;
		}
	}
	if (config)
		realcpu_kft_stop(log, keep, clean, NPHASES);
	for (p = 0; p < NPHASES; p++) {
		nclean = __builtin_popcountll(clean[p]);
		printf("phase %s %llu %d\n", phases[p].name,
		       nclean ? cycles[p] : all[p], nclean);
	}
	lua_close(L);
	return 0;
}
