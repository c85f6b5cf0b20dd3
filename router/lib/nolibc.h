/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * nolibc - the system calls triage-client makes, without libc on x86-64
 *
 * DESCRIPTION
 *	An empty program linked statically with glibc spends most of its
 *	start in glibc's own start-up (CPUID probes for its string
 *	functions, each a trap to the hypervisor on a virtual machine;
 *	readlink("/proc/self/exe"), tunables, IRELATIVE relocations); the
 *	same program without libc starts in a fraction of that ('make
 *	bench' shows both).  triage-client runs once per message and needs
 *	only a few system calls, so with NOLIBC defined (the Makefile does
 *	on x86-64) this header is its whole runtime: the entry point
 *	_start, which calls main(argc, argv, envp) and exits with what it
 *	returns; the system calls below; and memset(), memcpy(),
 *	memmove(), memcmp(), bcmp() and strlen(), which the compiler may
 *	also call on its own.  This is the idea of the kernel's
 *	tools/include/nolibc, written for this one program.
 *
 *	The program is a static PIE (-static-pie -nostdlib): the kernel
 *	maps it at a random address and no loader runs, so before main()
 *	_start does the loader's part for it: it applies its relative
 *	relocations (the only kind such a program has), makes the RELRO
 *	segment read-only (-z relro -z now), and points the thread pointer
 *	at a block holding the stack protector's canary, taken from the
 *	16 random bytes the kernel passes (AT_RANDOM), as glibc does.  A
 *	smashed stack, or a relocation of another kind, ends the program
 *	with EX_TEMPFAIL (75): the MTA keeps the message.
 *
 *	Without NOLIBC (other architectures, sanitizer builds) the same
 *	names are thin wrappers of libc's, so the client has one text.
 *
 *	Every sys_*() returns what the system call does: a result >= 0,
 *	or -errno.  sys_exit() does not return.
 *
 * Ownership:
 *	Nothing is allocated; there is no errno, no stdio, no atexit().
 */
#ifndef TRIAGE_NOLIBC_H
#define TRIAGE_NOLIBC_H

#include <stddef.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>

#ifdef NOLIBC
#ifndef __x86_64__
#error "NOLIBC is for x86-64 only: build without it"
#endif
#include <asm/prctl.h>
#include <elf.h>
#include <sys/mman.h>

static inline long nolibc_call(long n, long a, long b, long c)
{
	long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "a"(n), "D"(a), "S"(b), "d"(c)
			 : "rcx", "r11", "memory");
	return ret;
}

/*
 * The entry point: the stack holds argc, the argv pointers and a NULL,
 * the environment's and a NULL, then the auxiliary vector; main() is
 * called on a 16-byte aligned stack, as the ABI wants of every call.
 */
__asm__(".text\n"
	".global _start\n"
	"_start:\n"
	"	endbr64\n"
	"	xor %ebp, %ebp\n"
	"	mov %rsp, %rdi\n"
	"	and $-16, %rsp\n"
	"	call nolibc_start\n"
	"	hlt\n");

int main(int argc, char **argv, char **envp);

__attribute__((noreturn)) static inline void sys_exit(int status)
{
	nolibc_call(SYS_exit_group, status, 0, 0);
	__builtin_unreachable();
}

/* what the linker defines: the ELF header (at the load address), .dynamic */
extern const Elf64_Ehdr __ehdr_start __attribute__((visibility("hidden")));
extern const Elf64_Dyn _DYNAMIC[] __attribute__((visibility("hidden")));

/*
 * The thread control block %fs points at: the stack protector reads its
 * canary at %fs:0x28, as glibc lays it out (and a self pointer at 0).
 */
static struct {
	void *self;
	unsigned long pad[4];
	unsigned long canary;
} nolibc_tcb;

__attribute__((noreturn, used)) void __stack_chk_fail(void);
__attribute__((noreturn, used)) void __stack_chk_fail(void)
{
	static const char m[] = "triage-client: stack smashing detected\n";

	nolibc_call(SYS_write, 2, (long)m, sizeof(m) - 1);
	sys_exit(75); /* EX_TEMPFAIL: the message stays queued */
}

/*
 * nolibc_relocate - the loader's work for a static PIE: each relative
 * relocation adds the load address (the ELF header's, linked at 0); then
 * the RELRO segment becomes read-only.  Nothing here may read a pointer
 * from data (it is not relocated yet) or use the stack protector.
 */
__attribute__((no_stack_protector)) static inline void nolibc_relocate(void)
{
	unsigned long base = (unsigned long)&__ehdr_start;
	const Elf64_Rela *rela = NULL;
	const Elf64_Phdr *ph;
	unsigned long relasz = 0, i, start, end;
	const Elf64_Dyn *d;

	for (d = _DYNAMIC; d->d_tag != DT_NULL; d++) {
		if (d->d_tag == DT_RELA)
			rela = (const Elf64_Rela *)(base + d->d_un.d_ptr);
		else if (d->d_tag == DT_RELASZ)
			relasz = d->d_un.d_val;
		else if (d->d_tag == DT_REL || d->d_tag == DT_JMPREL ||
			 d->d_tag == DT_RELR)
			sys_exit(75); /* not what -static-pie makes here */
	}
	for (i = 0; rela && i < relasz / sizeof(*rela); i++) {
		if (ELF64_R_TYPE(rela[i].r_info) != R_X86_64_RELATIVE)
			sys_exit(75);
		*(unsigned long *)(base + rela[i].r_offset) =
			base + (unsigned long)rela[i].r_addend;
	}
	ph = (const Elf64_Phdr *)(base + __ehdr_start.e_phoff);
	for (i = 0; i < __ehdr_start.e_phnum; i++) {
		if (ph[i].p_type != PT_GNU_RELRO)
			continue;
		start = (base + ph[i].p_vaddr) & ~4095ul;
		end = (base + ph[i].p_vaddr + ph[i].p_memsz) & ~4095ul;
		if (end > start)
			nolibc_call(SYS_mprotect, (long)start,
				    (long)(end - start), PROT_READ);
	}
}

/* nolibc_start - from _start: the loader's part, then main() */
__attribute__((noreturn, used, no_stack_protector)) void nolibc_start(long *sp);
__attribute__((noreturn, used, no_stack_protector)) void nolibc_start(long *sp)
{
	int argc = (int)sp[0];
	char **argv = (char **)(sp + 1), **envp = argv + argc + 1, **e;
	const unsigned long *aux, *random = NULL;

	nolibc_relocate();
	for (e = envp; *e; e++)
		;
	for (aux = (const unsigned long *)(e + 1); aux[0] != AT_NULL; aux += 2)
		if (aux[0] == AT_RANDOM)
			random = (const unsigned long *)aux[1];
	/* the low byte zero, as glibc's: a string overrun cannot write it */
	nolibc_tcb.canary = random ? random[0] & ~0xfful : 0;
	nolibc_tcb.self = &nolibc_tcb;
	if (nolibc_call(SYS_arch_prctl, ARCH_SET_FS, (long)&nolibc_tcb, 0) < 0)
		sys_exit(75);
	sys_exit(main(argc, argv, envp));
}

/*
 * What the compiler may call for a structure's initialisation or copy.
 * The empty asm keeps it from seeing these loops as memset() or
 * memcpy() themselves, and calling them.
 */
void *memset(void *s, int c, size_t n);
void *memset(void *s, int c, size_t n)
{
	unsigned char *p = s;

	while (n--) {
		*p++ = (unsigned char)c;
		__asm__ volatile("" ::: "memory");
	}
	return s;
}

void *memmove(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if (d < s) {
		while (n--) {
			*d++ = *s++;
			__asm__ volatile("" ::: "memory");
		}
	} else {
		while (n--) {
			d[n] = s[n];
			__asm__ volatile("" ::: "memory");
		}
	}
	return dst;
}

void *memcpy(void *dst, const void *src, size_t n);
void *memcpy(void *dst, const void *src, size_t n)
{
	return memmove(dst, src, n);
}

size_t strlen(const char *s);
size_t strlen(const char *s)
{
	size_t n = 0;

	while (s[n]) {
		n++;
		__asm__ volatile("" ::: "memory");
	}
	return n;
}

int memcmp(const void *a, const void *b, size_t n);
int memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *x = a, *y = b;

	for (; n; n--, x++, y++) {
		if (*x != *y)
			return *x - *y;
		__asm__ volatile("" ::: "memory");
	}
	return 0;
}

/* clang calls bcmp() for memcmp() whose result is only tested against 0 */
int bcmp(const void *a, const void *b, size_t n);
int bcmp(const void *a, const void *b, size_t n)
{
	return memcmp(a, b, n);
}

#define NOLIBC_CALL(nr, a, b, c) \
	nolibc_call(nr, (long)(a), (long)(b), (long)(c))
#define sys_read(fd, buf, n)	NOLIBC_CALL(SYS_read, fd, buf, n)
#define sys_writev(fd, iov, n)	NOLIBC_CALL(SYS_writev, fd, iov, n)
#define sys_socket(d, t, p)	NOLIBC_CALL(SYS_socket, d, t, p)
#define sys_connect(fd, sa, n)	NOLIBC_CALL(SYS_connect, fd, sa, n)
#define sys_sendmsg(fd, mh, f)	NOLIBC_CALL(SYS_sendmsg, fd, mh, f)
#define sys_fcntl(fd, cmd, arg) NOLIBC_CALL(SYS_fcntl, fd, cmd, arg)
#define sys_getcwd(buf, n)	NOLIBC_CALL(SYS_getcwd, buf, n, 0)
#define sys_readlink(p, buf, n) NOLIBC_CALL(SYS_readlink, p, buf, n)
#define sys_execve(p, av, ev)	NOLIBC_CALL(SYS_execve, p, av, ev)

#else /* !NOLIBC: libc's, as -errno */

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

static inline long nolibc_ret(long r)
{
	return r < 0 ? -errno : r;
}

__attribute__((noreturn)) static inline void sys_exit(int status)
{
	exit(status);
}

#define sys_read(fd, buf, n)	nolibc_ret(read(fd, buf, n))
#define sys_writev(fd, iov, n)	nolibc_ret(writev(fd, iov, n))
#define sys_socket(d, t, p)	nolibc_ret(socket(d, t, p))
#define sys_connect(fd, sa, n)	nolibc_ret(connect(fd, sa, n))
#define sys_sendmsg(fd, mh, f)	nolibc_ret(sendmsg(fd, mh, f))
#define sys_fcntl(fd, cmd, arg) nolibc_ret(fcntl(fd, cmd, arg))
#define sys_getcwd(buf, n)	(getcwd(buf, n) ? 0 : -errno)
#define sys_readlink(p, buf, n) nolibc_ret(readlink(p, buf, n))
#define sys_execve(p, av, ev)	nolibc_ret(execve(p, av, ev))
#endif /* NOLIBC */

#endif /* TRIAGE_NOLIBC_H */
