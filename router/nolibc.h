/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * nolibc - the system calls triage-client makes, without libc on x86-64
 *
 * DESCRIPTION
 *	An empty program linked statically with glibc costs about 0.23 ms
 *	of CPU to start on a virtual machine: most of it is glibc's own
 *	start-up (CPUID probes for its string functions, each a trap to the
 *	hypervisor; readlink("/proc/self/exe"), tunables, IRELATIVE
 *	relocations).  The same empty program without libc costs about
 *	0.12 ms.  triage-client runs once per message and needs only a few
 *	system calls, so with NOLIBC defined (the Makefile does on x86-64)
 *	this header is its whole runtime: the entry point _start, which
 *	calls main(argc, argv, envp) and exits with what it returns; the
 *	system calls below; and memset(), memcpy(), memmove(), memcmp(),
 *	bcmp() and strlen(), which the compiler may also call on its own.
 *	This is the idea of the kernel's tools/include/nolibc, written for
 *	this one program.
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
 * then the environment's; main() is called on a 16-byte aligned stack,
 * as the ABI wants of every call.
 */
__asm__(".text\n"
	".global _start\n"
	"_start:\n"
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

/* nolibc_start - from _start: argc, argv and envp off the stack */
__attribute__((noreturn, used)) void nolibc_start(long *sp);
__attribute__((noreturn, used)) void nolibc_start(long *sp)
{
	int argc = (int)sp[0];
	char **argv = (char **)(sp + 1);

	sys_exit(main(argc, argv, argv + argc + 1));
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
