#define _GNU_SOURCE
#include "nat/osdata_sys.h"
#include "common/ps_buf.h"
#include "common/ps_error.h"

#include <criterion/criterion.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

/* gdbserver's split, kept: the value's leading blank and newline, and a
   value cut at its next ':'.  */
Test(osdata_sys, cpuinfo_lines)
{
	char a[] = "vendor_id\t: AuthenticAMD\n";
	char b[] = "cpu MHz\t\t: 2449.998\n";
	char c[] = "power management:\n";
	char d[] = "\n";
	char e[] = "address sizes\t: 48 bits: x\n";
	const char *key, *value;

	cr_assert_eq(osdata_cpuinfo_line(a, &key, &value), 1);
	cr_assert_str_eq(key, "vendor_id");
	cr_assert_str_eq(value, " AuthenticAMD\n");
	cr_assert_eq(osdata_cpuinfo_line(b, &key, &value), 1);
	cr_assert_str_eq(key, "cpu MHz");
	cr_assert_str_eq(value, " 2449.998\n");
	/* Nothing after the colon but the newline: that is the value.  */
	cr_assert_eq(osdata_cpuinfo_line(c, &key, &value), 1);
	cr_assert_str_eq(key, "power management");
	cr_assert_str_eq(value, "\n");
	cr_assert_eq(osdata_cpuinfo_line(d, &key, &value), 0);
	cr_assert_eq(osdata_cpuinfo_line(e, &key, &value), 1);
	cr_assert_str_eq(value, " 48 bits");
}

Test(osdata_sys, module_lines)
{
	char a[] = "kvm_amd 155648 0 - Live 0xffffffffc0a1d000\n";
	char b[] = "ccp 118784 1 kvm_amd, Live 0xffffffffc09e6000 (E)\n";
	char c[] = "broken line\n";
	struct osdata_module m;

	cr_assert_eq(osdata_module_line(a, &m), 1);
	cr_assert_str_eq(m.name, "kvm_amd");
	cr_assert_eq(m.size, 155648);
	cr_assert_eq(m.uses, 0);
	cr_assert_str_eq(m.dependencies, "-");
	cr_assert_str_eq(m.status, "Live");
	cr_assert_eq(m.address, 0xffffffffc0a1d000ull);
	cr_assert_eq(osdata_module_line(b, &m), 1);
	cr_assert_str_eq(m.dependencies, "kvm_amd,");
	cr_assert_eq(m.uses, 1);
	cr_assert_eq(osdata_module_line(c, &m), 0);
}

Test(osdata_sys, socket_lines)
{
	static const char header[] = "  sl  local_address rem_address   st "
		"tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n";
	/* 127.0.0.1:2345 listening, uid 1000; ::1:22 to ::1:40000.  */
	static const char v4[] = "   0: 0100007F:0929 00000000:0000 0A "
		"00000000:00000000 00:00000000 00000000  1000        0 12345 "
		"1 0000000000000000 100 0 0 10 0\n";
	static const char v6[] = "   1: 00000000000000000000000001000000:0016 "
		"00000000000000000000000001000000:9C40 01 00000000:00000000 "
		"00:00000000 00000000     0        0 999 1 0 20 4 30 10 -1\n";
	struct osdata_socket s;

	cr_assert_eq(osdata_socket_line(header, AF_INET, 1, &s), 0);
	cr_assert_eq(osdata_socket_line(v4, AF_INET, 1, &s), 1);
	cr_assert_str_eq(s.local_address, "127.0.0.1");
	cr_assert_str_eq(s.local_port, "2345");
	cr_assert_str_eq(s.remote_address, "0.0.0.0");
	cr_assert_str_eq(s.remote_port, "0");
	cr_assert_eq(s.uid, 1000);
	cr_assert_str_eq(osdata_socket_state(s.state), "LISTEN");
	cr_assert_eq(osdata_socket_line(v6, AF_INET6, 1, &s), 1);
	cr_assert_str_eq(s.local_address, "::1");
	cr_assert_str_eq(s.local_port, "22");
	cr_assert_str_eq(s.remote_port, "40000");
	cr_assert_str_eq(osdata_socket_state(s.state), "ESTABLISHED");
	cr_assert_str_eq(osdata_socket_state(0), "(unknown)");
	cr_assert_str_eq(osdata_socket_state(11), "CLOSING");
	cr_assert_str_eq(osdata_socket_state(99), "(unknown)");
}

Test(osdata_sys, sysvipc_lines)
{
	static const char shm_header[] = "       key      shmid perms       "
		"size  cpid  lpid nattch   uid   gid  cuid  cgid      atime      "
		"dtime      ctime        rss       swap\n";
	static const char shm[] = "         0         12   1600     524288  "
		"4242  4243      2  1000  1000  1000  1000 1700000000          0 "
		"1700000001       4096          0\n";
	static const char sem[] = "         5      7   644         3  0  0  "
		"0  0          0 1700000002\n";
	static const char msg[] = "        -1      3   666         0         "
		"0     0     0     0     0     0     0          0          0 "
		"1700000003\n";
	struct osdata_shm s;
	struct osdata_sem e;
	struct osdata_msg m;

	cr_assert_eq(osdata_shm_line(shm_header, &s), 0);
	cr_assert_eq(osdata_shm_line(shm, &s), 1);
	cr_assert_eq(s.shmid, 12);
	cr_assert_eq(s.perms, 01600);
	cr_assert_eq(s.size, 524288);
	cr_assert_eq(s.cpid, 4242);
	cr_assert_eq(s.nattch, 2);
	cr_assert_eq(s.dtime, 0);
	cr_assert_eq(s.ctime, 1700000001);
	cr_assert_eq(osdata_sem_line(sem, &e), 1);
	cr_assert_eq(e.key, 5);
	cr_assert_eq(e.perms, 0644);
	cr_assert_eq(e.nsems, 3);
	cr_assert_eq(e.ctime, 1700000002);
	cr_assert_eq(osdata_msg_line(msg, &m), 1);
	cr_assert_eq(m.key, -1);
	cr_assert_eq(m.perms, 0666);
	cr_assert_eq(m.ctime, 1700000003);
	cr_assert_eq(osdata_msg_line("key msqid\n", &m), 0);
}

Test(osdata_sys, names_and_times)
{
	struct passwd *pw = getpwuid(getuid());
	struct group *gr = getgrgid(getgid());
	struct ps_buf b;
	char want[32];
	time_t t = 1700000000;

	ps_buf_init(&b);
	cr_assert_eq(osdata_user_name(getuid(), &b), 0);
	cr_assert_str_eq(b.len ? b.data : "", pw ? pw->pw_name : "");
	ps_buf_reset(&b);
	cr_assert_eq(osdata_group_name(getgid(), &b), 0);
	cr_assert_str_eq(b.len ? b.data : "", gr ? gr->gr_name : "");
	ps_buf_reset(&b);
	/* No such user: nothing, not an error.  */
	cr_assert_eq(osdata_user_name((uid_t) 0x7ffffff0, &b), 0);
	cr_assert_eq(b.len, 0);
	cr_assert_eq(osdata_time(0, &b), 0);
	cr_assert_eq(b.len, 0);
	cr_assert_eq(osdata_time(1700000000, &b), 0);
	ctime_r(&t, want);
	cr_assert_str_eq(b.data, want);
	cr_assert_eq(b.data[b.len - 1], '\n');
	ps_buf_fini(&b);
}

static int first_key(void *ctx, const char *key, const char *value)
{
	(void) value;
	snprintf(ctx, 64, "%s", key);
	return 1;       /* the first row is enough */
}

/* The reader stops at the first nonzero return and gives it back.  */
Test(osdata_sys, cpuinfo_reader_starts_with_a_processor)
{
	char key[64] = "";

	cr_assert_eq(osdata_read_cpuinfo(first_key, key), 1);
	cr_assert_str_eq(key, "processor");
}

struct port_search {
	char port[NI_MAXSERV];
	int found, tcp;
};

static int find_port(void *ctx, const struct osdata_socket *sock,
		     int family, int tcp)
{
	struct port_search *s = ctx;

	if (family == AF_INET && !strcmp(sock->local_port, s->port) &&
	    !strcmp(sock->local_address, "127.0.0.1") && sock->state == 10) {
		s->found = 1;
		s->tcp = tcp;
	}
	return 0;
}

Test(osdata_sys, sockets_reader_finds_a_listening_socket)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t len = sizeof(a);
	struct port_search s = { .found = 0 };
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	cr_assert_geq(fd, 0);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	cr_assert_eq(bind(fd, (struct sockaddr *) &a, sizeof(a)), 0);
	cr_assert_eq(listen(fd, 1), 0);
	cr_assert_eq(getsockname(fd, (struct sockaddr *) &a, &len), 0);
	snprintf(s.port, sizeof(s.port), "%u", ntohs(a.sin_port));
	cr_assert_eq(osdata_read_sockets(find_port, &s), 0);
	close(fd);
	cr_assert(s.found, "port %s not listed", s.port);
	cr_assert(s.tcp);
}

static int find_shm(void *ctx, const struct osdata_shm *shm)
{
	int *id = ctx;

	if (shm->shmid == *id && shm->size == 4096)
		*id = -1;
	return 0;
}

Test(osdata_sys, shm_reader_finds_a_segment)
{
	int id = shmget(IPC_PRIVATE, 4096, IPC_CREAT | 0600), want = id;

	if (id < 0)
		cr_skip_test("no System V shared memory here");
	cr_assert_eq(osdata_read_shm(find_shm, &id), 0);
	shmctl(want, IPC_RMID, NULL);
	cr_assert_eq(id, -1, "segment %d not listed", want);
}
