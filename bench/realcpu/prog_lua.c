// SPDX-License-Identifier: GPL-2.0
/*
 * bench/realcpu: Lua 5.4 (Debian's lua5.4 source) as the program
 * driver.c runs: deep call trees of many small functions (the VM's and
 * the libraries').  Four phases of different character, each a function
 * here that calls one Lua function: recursive fib, binary trees (the
 * allocator and the collector), string building (format, concat, gsub,
 * gmatch), table.sort with a Lua comparator.
 */
#include <stdio.h>
#include <stdlib.h>

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

static lua_State *L;
static int scale;

static void call(const char *fn)
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
__attribute__((noinline)) void phase_fib(void)
{
	call("phase_fib");
}

__attribute__((noinline)) void phase_trees(void)
{
	call("phase_trees");
}

__attribute__((noinline)) void phase_strings(void)
{
	call("phase_strings");
}

__attribute__((noinline)) void phase_sort(void)
{
	call("phase_sort");
}

const struct realcpu_phase realcpu_phases[] = {
	{ "phase_fib", phase_fib },
	{ "phase_trees", phase_trees },
	{ "phase_strings", phase_strings },
	{ "phase_sort", phase_sort },
	{ NULL, NULL }
};

void realcpu_prog_init(int s)
{
	scale = s;
	L = luaL_newstate();
	luaL_openlibs(L);
	if (luaL_dostring(L, script) != LUA_OK) {
		fprintf(stderr, "realcpu: %s\n", lua_tostring(L, -1));
		exit(2);
	}
	/* Warm: the first phase should not pay for the first page faults. */
	lua_gc(L, LUA_GCCOLLECT);
}
