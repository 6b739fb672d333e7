# SPDX-License-Identifier: MIT
"""The system headers a public header makes available, as data: what each
system header declares that a program may use (the probes), and the file
that lists, per public header, flag set and mode, which probes liburcu's
header of the same name satisfies (sysheaders.tsv, written by
gen-sysheaders.py, read by check_headers.py).

A probe is one line of C that is also C++: a block statement placed in the
body of a function, using only names its system header declares.  Each
line stands alone, so a compiler error names its probe by line number.
"""

# system header -> [(probe name, statement)], in the order they are written.
PROBES = {
    'assert.h': [
        ('assert', 'assert(1);'),
        ('static_assert', 'static_assert(1, "static_assert");'),
    ],
    'stddef.h': [
        ('size_t', '{ size_t probe_v = sizeof(int); (void) probe_v; }'),
        ('NULL', '{ void *probe_v = NULL; (void) probe_v; }'),
        ('ptrdiff_t', '{ ptrdiff_t probe_v = 0; (void) probe_v; }'),
        ('offsetof', '{ struct probe_s { int a, b; }; '
                     'unsigned long probe_v = offsetof(struct probe_s, b); (void) probe_v; }'),
    ],
    'stdbool.h': [
        ('bool', '{ bool probe_v = true; probe_v = false; (void) probe_v; }'),
    ],
    'stdint.h': [
        ('uintN_t', '{ uint8_t probe_a = 0; uint16_t probe_b = 0; uint32_t probe_c = UINT32_MAX; '
                    'uint64_t probe_d = UINT64_MAX; int32_t probe_e = INT32_MIN; int64_t probe_f = 0; '
                    '(void) probe_a; (void) probe_b; (void) probe_c; (void) probe_d; '
                    '(void) probe_e; (void) probe_f; }'),
        ('uintptr_t', '{ uintptr_t probe_a = UINTPTR_MAX; intptr_t probe_b = 0; '
                      '(void) probe_a; (void) probe_b; }'),
        ('SIZE_MAX', '{ unsigned long long probe_v = SIZE_MAX; (void) probe_v; }'),
    ],
    'stdlib.h': [
        ('malloc', '{ void *probe_v = malloc(1); probe_v = realloc(probe_v, 2); free(probe_v); '
                   'probe_v = calloc(1, 1); free(probe_v); }'),
        ('abort', 'if (probe_never) abort();'),
        ('exit', 'if (probe_never) exit(EXIT_FAILURE);'),
        ('getenv', '(void) getenv("PROBE");'),
    ],
    'alloca.h': [
        ('alloca', '{ void *probe_v = alloca(8); (void) probe_v; }'),
    ],
    'string.h': [
        ('memcpy', '{ char probe_a[2] = "a", probe_b[2]; memcpy(probe_b, probe_a, 2); '
                   'memset(probe_b, 0, 2); (void) strlen(probe_a); (void) memcmp(probe_a, probe_b, 2); }'),
    ],
    'errno.h': [
        ('errno', '{ int probe_v = errno; (void) probe_v; }'),
        ('E-codes', '{ int probe_v[] = { EINVAL, EAGAIN, EINTR, ENOMEM, EBUSY, ENOSYS, EPERM, '
                    'ENOENT, ETIMEDOUT }; (void) probe_v; }'),
    ],
    'limits.h': [
        ('INT_MAX', '{ long long probe_v[] = { CHAR_BIT, INT_MAX, INT_MIN, LONG_MAX, LONG_MIN }; '
                    '(void) probe_v; }'),
        ('ULONG_MAX', '{ unsigned long probe_v[] = { UINT_MAX, ULONG_MAX }; (void) probe_v; }'),
    ],
    'linux/limits.h': [
        ('PATH_MAX', '{ int probe_v = PATH_MAX; (void) probe_v; }'),
    ],
    'sys/types.h': [
        ('pid_t', '{ pid_t probe_a = 0; ssize_t probe_b = 0; off_t probe_c = 0; '
                  '(void) probe_a; (void) probe_b; (void) probe_c; }'),
    ],
    'sys/select.h': [
        ('fd_set', '{ fd_set probe_v; FD_ZERO(&probe_v); }'),
    ],
    'endian.h': [
        ('BYTE_ORDER', '{ int probe_v = BYTE_ORDER == LITTLE_ENDIAN; (void) probe_v; }'),
        ('htole32', '{ unsigned probe_v = htole32(1); (void) probe_v; }'),
    ],
    'unistd.h': [
        ('getpid', '(void) getpid();'),
        ('sysconf', '(void) sysconf(_SC_NPROCESSORS_ONLN);'),
        ('close', 'if (probe_never) (void) close(-1);'),
        ('usleep', 'if (probe_never) (void) usleep(1);'),
        ('syscall', 'if (probe_never) (void) syscall(0);'),
    ],
    'linux/close_range.h': [
        ('CLOSE_RANGE_CLOEXEC', '{ unsigned probe_v = CLOSE_RANGE_CLOEXEC; (void) probe_v; }'),
    ],
    'sys/syscall.h': [
        ('SYS_futex', '{ long probe_v = SYS_futex; (void) probe_v; }'),
    ],
    'syscall.h': [
        ('SYS_futex', '{ long probe_v = SYS_futex; (void) probe_v; }'),
    ],
    'time.h': [
        ('time_t', '{ time_t probe_v = time(0); (void) probe_v; }'),
        ('timespec', '{ struct timespec probe_v; probe_v.tv_sec = 0; probe_v.tv_nsec = 0; '
                     '(void) probe_v; }'),
        ('clock_gettime', '{ struct timespec probe_v; '
                          '(void) clock_gettime(CLOCK_MONOTONIC, &probe_v); }'),
    ],
    'sys/time.h': [
        ('gettimeofday', '{ struct timeval probe_v; (void) gettimeofday(&probe_v, 0); }'),
    ],
    'sched.h': [
        ('sched_yield', '(void) sched_yield();'),
        ('sched_param', '{ struct sched_param probe_v; probe_v.sched_priority = 0; '
                        '(void) probe_v; }'),
        ('cpu_set_t', '{ cpu_set_t probe_v; CPU_ZERO(&probe_v); CPU_SET(0, &probe_v); }'),
    ],
    'pthread.h': [
        ('pthread_mutex_t', '{ pthread_mutex_t probe_v = PTHREAD_MUTEX_INITIALIZER; '
                            '(void) pthread_mutex_lock(&probe_v); '
                            '(void) pthread_mutex_unlock(&probe_v); }'),
        ('pthread_cond_t', '{ pthread_cond_t probe_v = PTHREAD_COND_INITIALIZER; '
                           '(void) pthread_cond_signal(&probe_v); }'),
        ('pthread_t', '{ pthread_t probe_v = pthread_self(); (void) probe_v; }'),
        ('pthread_attr_t', '{ pthread_attr_t probe_v; (void) pthread_attr_init(&probe_v); }'),
        ('pthread_key_t', '{ pthread_key_t probe_v; if (probe_never) '
                          '(void) pthread_key_create(&probe_v, 0); }'),
    ],
    'signal.h': [
        ('sig_atomic_t', '{ sig_atomic_t probe_v = SIGINT; (void) probe_v; }'),
        ('sigset_t', '{ sigset_t probe_v; (void) sigemptyset(&probe_v); }'),
    ],
    'poll.h': [
        ('poll', '{ struct pollfd probe_v; probe_v.fd = -1; probe_v.events = POLLIN; '
                 'if (probe_never) (void) poll(&probe_v, 1, 0); }'),
    ],
    'sys/poll.h': [
        ('poll', '{ struct pollfd probe_v; probe_v.fd = -1; probe_v.events = POLLIN; '
                 'if (probe_never) (void) poll(&probe_v, 1, 0); }'),
    ],
    'stdio.h': [
        ('printf', 'if (probe_never) { FILE *probe_v = stderr; (void) fprintf(probe_v, "%d", 1); '
                   '(void) printf("%d", 1); }'),
    ],
    'stdarg.h': [
        ('va_list', '(void) sizeof(va_list);'),
    ],
    'inttypes.h': [
        ('PRIu64', '{ const char *probe_v = PRIu64; (void) probe_v; }'),
    ],
}

# Headers an -H listing shows that programs do not include for what they
# declare (glibc's and the compiler's internals, the C++ library's
# wrappers); anything else without probes stops gen-sysheaders.py.
IGNORED_PREFIXES = ('bits/', 'asm/', 'asm-generic/', 'gnu/', 'c++/', 'pstl/')
IGNORED = {
    'features.h', 'features-time64.h', 'stdc-predef.h', 'sys/cdefs.h',
    'syslimits.h', 'linux/errno.h', 'linux/types.h', 'linux/posix_types.h',
    'linux/stddef.h', 'cstdlib', 'cstddef', 'cstdint', 'type_traits',
}

FUNC = 'urcu_sysprobe'


def ignored(name):
    return name in IGNORED or name.startswith(IGNORED_PREFIXES) or '.' not in name


def source(prelude, items):
    """A translation unit: PRELUDE (the #include lines), then a function
    that uses every probe of ITEMS [(system header, probe name)], one per
    line.  Returns (text, {line number: item})."""
    lines = prelude.rstrip('\n').split('\n') if prelude else []
    lines += ['void %s(int probe_never);' % FUNC,
              'void %s(int probe_never)' % FUNC, '{',
              '\t(void) probe_never;']
    where = {}
    code = {}
    for header, probes in PROBES.items():
        for name, stmt in probes:
            code[(header, name)] = stmt
    for item in items:
        lines.append('\t' + code[item])
        where[len(lines)] = item
    lines.append('}')
    return '\n'.join(lines) + '\n', where


def encode(items):
    """ITEMS as text: a system header alone when every one of its probes is
    in, else header:probe,probe."""
    by_header = {}
    for header, name in items:
        by_header.setdefault(header, []).append(name)
    words = []
    for header in sorted(by_header):
        names = by_header[header]
        if len(names) == len(PROBES[header]):
            words.append(header)
        else:
            order = [n for n, _ in PROBES[header]]
            words.append('%s:%s' % (header, ','.join(sorted(names, key=order.index))))
    return ' '.join(words)


def decode(text):
    items = []
    for word in text.split():
        header, _, names = word.partition(':')
        if header not in PROBES:
            raise ValueError('unknown system header %r' % header)
        known = [n for n, _ in PROBES[header]]
        for name in (names.split(',') if names else known):
            if name not in known:
                raise ValueError('unknown probe %r of %s' % (name, header))
            items.append((header, name))
    return items


def read_data(path):
    """{(header, flag set, mode): [items]} from sysheaders.tsv; mode 'both'
    gives both 'plain' and 'lgpl'."""
    data = {}
    with open(path, encoding='utf-8') as f:
        for lineno, line in enumerate(f, 1):
            line = line.rstrip('\n')
            if not line or line.startswith('#'):
                continue
            cols = line.split('\t')
            if len(cols) != 4:
                raise ValueError('%s:%d: expected 4 tab-separated columns' % (path, lineno))
            header, fset, mode, words = cols
            modes = ('plain', 'lgpl') if mode == 'both' else (mode,)
            for m in modes:
                data[(header, fset, m)] = decode(words)
    return data
