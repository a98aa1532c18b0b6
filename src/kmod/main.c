/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * main() of a module program: the whole of it is pp_kmod_main(). In its
 * own object file so that a program with a main() of its own can still
 * link the library and call pp_kmod_main() itself.
 */
#include <pagepool/kmod.h>

int main(int argc, char **argv)
{
	return pp_kmod_main(argc, argv);
}
