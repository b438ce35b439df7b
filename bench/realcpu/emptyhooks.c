// SPDX-License-Identifier: GPL-2.0
/*
 * bench/realcpu, variant (b): -finstrument-functions with hooks that do
 * nothing - the program compensation claims to give the times of.  Their
 * arguments are made ready and the calls made, as KFT's calibration's
 * empty loop makes them (kernel/kft_calibrate.c: kft_cal_nothing()).
 */
__attribute__((no_instrument_function, noinline))
void __cyg_profile_func_enter(void *fn, void *site)
{
	__asm__ volatile("" : : "r" (fn), "r" (site) : "memory");
}

__attribute__((no_instrument_function, noinline))
void __cyg_profile_func_exit(void *fn, void *site)
{
	__asm__ volatile("" : : "r" (fn), "r" (site) : "memory");
}
