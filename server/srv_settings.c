/* Q packets that set how programs run: signals to pass, syscalls to
   catch, randomization, environment, shell, working directory.  */
#include "server/server.h"
#include "common/gdb_signals.h"
#include "common/ps_array.h"
#include "common/ps_error.h"
#include "common/ps_hex.h"

#include <stdlib.h>
#include <string.h>

extern char **environ;

static int srv_ok(struct srv *srv)
{
	ps_buf_puts(&srv->reply, "OK");
	return srv_reply;
}

/* "QPassSignals:e;10;..." (or QProgramSignals) in GDB's numbering,
   into a host table that SET gives the target.  */
static int srv_pass_signals(struct srv *srv, const char *p, const char *end,
			    void (*set)(struct nat_target *target,
					const uint8_t pass[NAT_SIGNALS]))
{
	uint8_t pass[NAT_SIGNALS] = { 0 };
	const char *field;
	size_t flen;

	while (rsp_next_field(&p, end, ';', &field, &flen) == 1) {
		const char *q = field;
		uint64_t gdb_sig;
		int host;

		if (!flen)
			continue;
		if (ps_hex_parse_u64(&q, field + flen, &gdb_sig) < 0 ||
		    q != field + flen || gdb_sig > 0xffff)
			return -pse_invalid;
		host = gdb_signal_to_host((int) gdb_sig);
		/* A host signal is looked up under the one GDB number it
		   reports as (SIGIO, not SIGPOLL, for Linux's 29), as
		   gdbserver's table indexed by GDB numbers does.  */
		if (host > 0 && host < (int) sizeof(pass) &&
		    gdb_signal_from_host(host) == (int) gdb_sig)
			pass[host] = 1;
	}
	set(srv->target, pass);
	return srv_ok(srv);
}

/* "QCatchSyscalls:0", ":1" (every call) or ":1;NR;NR..." (hex), for the
   selected process, as gdbserver keeps it.  */
static int srv_catch_syscalls(struct srv *srv, const char *p, const char *end)
{
	struct nat_process *proc = srv_general_process(srv);
	uint64_t nrs[NAT_CATCH_SYSCALL_MAX];
	size_t n = 0;
	int on;

	if (!proc)
		return srv_error_text(srv, "No process.");
	if (end - p == 1 && *p == '0')
		on = 0;
	else if (p < end && *p == '1' && (end - p == 1 || p[1] == ';'))
		on = 1;
	else
		return -pse_invalid;
	p++;
	while (p < end) {
		if (*p++ != ';' || n == NAT_CATCH_SYSCALL_MAX ||
		    ps_hex_parse_u64(&p, end, &nrs[n]) < 0)
			return -pse_invalid;
		n++;
	}
	if (nat_process_catch_syscalls(proc, on, nrs, n) < 0)
		return -pse_invalid;
	return srv_ok(srv);
}

static void srv_env_free(struct srv *srv)
{
	for (size_t i = 0; i < srv->nenv; i++)
		free(srv->env[i]);
	free(srv->env);
	srv->env = NULL;
	srv->nenv = srv->env_cap = 0;
	nat_target_start_opts(srv->target)->envp = NULL;
}

/* The environment vRun will use starts as ptstub's own.  */
static int srv_env_own(struct srv *srv)
{
	size_t n = 0;

	if (srv->env)
		return 0;
	while (environ[n])
		n++;
	if (PS_ARRAY_RESERVE(srv->env, srv->env_cap, n + 1) < 0)
		return -pse_nomem;
	memset(srv->env, 0, (n + 1) * sizeof(*srv->env));
	for (size_t i = 0; i < n; i++) {
		srv->env[i] = strdup(environ[i]);
		if (!srv->env[i])
			return -pse_nomem;
		srv->nenv++;
	}
	nat_target_start_opts(srv->target)->envp = srv->env;
	return 0;
}

static size_t srv_env_find(struct srv *srv, const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < srv->nenv; i++)
		if (!strncmp(srv->env[i], name, len) && srv->env[i][len] == '=')
			break;
	return i;
}

static int srv_env_set(struct srv *srv, const char *p, const char *end,
		       int unset)
{
	const char *eq;
	size_t i, name_len;
	char *entry, **env;
	long n;
	int err;

	ps_buf_reset(&srv->scratch);
	n = rsp_parse_hex_string(&p, end, &srv->scratch);
	if (n < 0 || p != end)
		return -pse_invalid;
	err = srv_env_own(srv);
	if (err < 0)
		return err;

	eq = memchr(srv->scratch.data, '=', srv->scratch.len);
	if (!unset && !eq)
		return -pse_invalid;
	name_len = unset ? srv->scratch.len : (size_t) (eq - srv->scratch.data);
	i = srv_env_find(srv, srv->scratch.data, name_len);
	if (unset) {
		if (i < srv->nenv) {
			free(srv->env[i]);
			memmove(&srv->env[i], &srv->env[i + 1],
				(srv->nenv - i) * sizeof(*srv->env));
			srv->nenv--;
		}
		return srv_ok(srv);
	}

	entry = strndup(srv->scratch.data, srv->scratch.len);
	if (!entry)
		return -pse_nomem;
	if (i < srv->nenv) {
		free(srv->env[i]);
		srv->env[i] = entry;
		return srv_ok(srv);
	}
	if (PS_ARRAY_RESERVE(srv->env, srv->env_cap, srv->nenv + 2) < 0) {
		free(entry);
		return -pse_nomem;
	}
	env = srv->env;
	env[srv->nenv++] = entry;
	env[srv->nenv] = NULL;
	nat_target_start_opts(srv->target)->envp = env;
	return srv_ok(srv);
}

static int srv_flag(struct srv *srv, const char *p, const char *end,
		    int *flag)
{
	if (end - p != 1 || (*p != '0' && *p != '1'))
		return -pse_invalid;
	*flag = *p == '1';
	return srv_ok(srv);
}

static int srv_set_cwd(struct srv *srv, const char *p, const char *end)
{
	long n;

	ps_buf_reset(&srv->scratch);
	n = rsp_parse_hex_string(&p, end, &srv->scratch);
	if (n < 0 || p != end)
		return -pse_invalid;
	free(srv->cwd);
	srv->cwd = n ? strdup(srv->scratch.data) : NULL;
	nat_target_start_opts(srv->target)->cwd = srv->cwd;
	return srv_ok(srv);
}

int srv_handle_settings(struct srv *srv, const char *pkt, size_t len)
{
	const char *end = pkt + len;
	struct nat_start_opts *start = nat_target_start_opts(srv->target);

#define ARG(name) (pkt + strlen(name))
	if (srv_prefix(pkt, len, "QPassSignals:"))
		return srv_pass_signals(srv, ARG("QPassSignals:"), end,
					nat_target_set_pass_signals);
	if (srv_prefix(pkt, len, "QThreadEvents:")) {
		int on;
		int err = srv_flag(srv, ARG("QThreadEvents:"), end, &on);

		if (err == srv_reply) {
			nat_target_set_thread_events(srv->target, on);
		}
		return err;
	}
	/* `set agent on|off`: gdbserver's switch for its in-process agent
	   library, which only tracepoints use.  ptstub has no such agent
	   and runs breakpoint commands itself either way: accepted, as
	   gdbserver accepts it without the library loaded.  */
	if (srv_prefix(pkt, len, "QAgent:")) {
		int on;

		return srv_flag(srv, ARG("QAgent:"), end, &on);
	}
	if (srv_prefix(pkt, len, "QCatchSyscalls:"))
		return srv_catch_syscalls(srv, ARG("QCatchSyscalls:"), end);
	if (srv_prefix(pkt, len, "QProgramSignals:")) {
		return srv_pass_signals(srv, ARG("QProgramSignals:"), end,
					nat_target_set_program_signals);
	}
	if (srv_prefix(pkt, len, "QDisableRandomization:"))
		return srv_flag(srv, ARG("QDisableRandomization:"), end,
				&start->disable_randomization);
	if (srv_prefix(pkt, len, "QStartupWithShell:"))
		return srv_flag(srv, ARG("QStartupWithShell:"), end,
				&start->startup_with_shell);
	if (srv_prefix(pkt, len, "QEnvironmentHexEncoded:"))
		return srv_env_set(srv, ARG("QEnvironmentHexEncoded:"), end, 0);
	if (srv_prefix(pkt, len, "QEnvironmentUnset:"))
		return srv_env_set(srv, ARG("QEnvironmentUnset:"), end, 1);
	if (srv_prefix(pkt, len, "QEnvironmentReset")) {
		srv_env_free(srv);
		return srv_ok(srv);
	}
	if (srv_prefix(pkt, len, "QSetWorkingDir:"))
		return srv_set_cwd(srv, ARG("QSetWorkingDir:"), end);
#undef ARG
	return srv_reply;
}

void srv_settings_fini(struct srv *srv)
{
	srv_env_free(srv);
	free(srv->cwd);
	srv->cwd = NULL;
	nat_target_start_opts(srv->target)->cwd = NULL;
}
