// Starts a program with posix_spawn, which glibc and musl implement with vfork semantics (the child shares
// the parent's memory until it execs), so starting a program costs the same whatever the starting process
// weighs. Node's child_process forks on Linux: on the machines measured that cost ~0.7 ms of kernel time
// in the parent and ~0.3 ms more in the child, per program (docs/BENCHMARKS.md, issue 14).
//
// One function, for engine/processes/child-starters.ts:
//   spawn(file, argv, env, cwd, onExit, passFds?) -> [pid, stdoutFd, stderrFd] | -errno
// and `passesDescriptors: true`, so the caller can tell this build from one that ignored passFds.
// The program gets /dev/null as stdin, a new pipe for stdout and for stderr (the returned read ends are
// close-on-exec), the descriptors of passFds at 3, 4, … in order, its own session and process group, default signal dispositions and an empty signal mask,
// as Node's spawn(..., { detached: true, stdio: ['ignore', 'pipe', 'pipe'] }) gives it. A file name without
// a slash is looked up in the PATH of `env`, as execvp would in the child. A thread per program waits for
// it and calls onExit(code, signal) on the JavaScript thread: code is null when a signal ended it.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <node_api.h>
#include <paths.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define WAITER_STACK_SIZE (64 * 1024)

/**
 * One program's waiter. The thread-safe function that reports the exit is destroyed with its environment
 * (a worker thread ending, the app quitting) even while the thread still waits, so the environment's
 * cleanup hook, which runs before the function's own, marks the environment gone, and the thread then
 * reports nothing. Freed by whichever of the thread and the environment lets go last.
 */
typedef struct {
  pthread_mutex_t lock;
  int environment_alive;
  int holders;
  pid_t pid;
  napi_threadsafe_function on_exit;
} waiter_t;

typedef struct {
  int code; /* -1 when a signal ended the program */
  int signal;
} exit_status_t;

static void let_go_of(waiter_t *waiter) {
  pthread_mutex_lock(&waiter->lock);
  int left = --waiter->holders;
  pthread_mutex_unlock(&waiter->lock);
  if (left == 0) {
    pthread_mutex_destroy(&waiter->lock);
    free(waiter);
  }
}

/** Runs on the JavaScript thread when the environment ends, before the thread-safe function is destroyed. */
static void environment_gone(void *arg) {
  waiter_t *waiter = arg;
  pthread_mutex_lock(&waiter->lock);
  waiter->environment_alive = 0;
  pthread_mutex_unlock(&waiter->lock);
  let_go_of(waiter);
}

static void *wait_for_exit(void *arg) {
  waiter_t *waiter = arg;
  int status = 0;
  pid_t reaped;
  do reaped = waitpid(waiter->pid, &status, 0);
  while (reaped < 0 && errno == EINTR);
  exit_status_t *exit_status = malloc(sizeof *exit_status);
  if (exit_status != NULL) {
    exit_status->code = reaped > 0 && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    exit_status->signal = reaped > 0 && WIFSIGNALED(status) ? WTERMSIG(status) : 0;
  }
  pthread_mutex_lock(&waiter->lock);
  if (waiter->environment_alive) {
    // The queue is unbounded, so this call never blocks while the lock is held.
    if (exit_status == NULL ||
        napi_call_threadsafe_function(waiter->on_exit, exit_status, napi_tsfn_nonblocking) != napi_ok)
      free(exit_status);
    napi_release_threadsafe_function(waiter->on_exit, napi_tsfn_release);
  } else {
    free(exit_status);
  }
  pthread_mutex_unlock(&waiter->lock);
  let_go_of(waiter);
  return NULL;
}

static void call_on_exit(napi_env env, napi_value on_exit, void *context, void *data) {
  waiter_t *waiter = context;
  exit_status_t *exit_status = data;
  if (env != NULL) {
    if (on_exit != NULL) {
      napi_value receiver, argv[2];
      napi_get_undefined(env, &receiver);
      if (exit_status->code < 0)
        napi_get_null(env, &argv[0]);
      else
        napi_create_int32(env, exit_status->code, &argv[0]);
      napi_create_int32(env, exit_status->signal, &argv[1]);
      napi_call_function(env, receiver, on_exit, 2, argv, NULL);
    }
    // The environment outlived the program: its hook is no longer needed.
    napi_remove_env_cleanup_hook(env, environment_gone, waiter);
    let_go_of(waiter);
  }
  free(exit_status);
}

/** A JavaScript string as a new C string, or NULL. */
static char *string_of(napi_env env, napi_value value) {
  size_t length = 0;
  if (napi_get_value_string_utf8(env, value, NULL, 0, &length) != napi_ok) return NULL;
  char *text = malloc(length + 1);
  if (text != NULL) napi_get_value_string_utf8(env, value, text, length + 1, &length);
  return text;
}

static void free_strings(char **strings) {
  if (strings == NULL) return;
  for (char **string = strings; *string != NULL; string++) free(*string);
  free(strings);
}

/** A JavaScript array of strings as a NULL-terminated array of new C strings, or NULL. */
static char **strings_of(napi_env env, napi_value array) {
  uint32_t count = 0;
  if (napi_get_array_length(env, array, &count) != napi_ok) return NULL;
  char **strings = calloc(count + 1, sizeof *strings);
  if (strings == NULL) return NULL;
  for (uint32_t i = 0; i < count; i++) {
    napi_value element;
    if (napi_get_element(env, array, i, &element) != napi_ok ||
        (strings[i] = string_of(env, element)) == NULL) {
      free_strings(strings);
      return NULL;
    }
  }
  return strings;
}

/** posix_spawn, and for a file the kernel cannot execute (no #! line), /bin/sh running it, as execvp does. */
static int spawn_file(pid_t *pid, const char *file, const posix_spawn_file_actions_t *actions,
                      const posix_spawnattr_t *attributes, char **argv, char **env) {
  int error = posix_spawn(pid, file, actions, attributes, argv, env);
  if (error != ENOEXEC) return error;
  size_t count = 0;
  while (argv[count] != NULL) count++;
  char **shell_argv = calloc(count + 2, sizeof *shell_argv);
  if (shell_argv == NULL) return ENOMEM;
  shell_argv[0] = "/bin/sh";
  shell_argv[1] = (char *)file;
  for (size_t i = 1; i < count; i++) shell_argv[i + 1] = argv[i];
  error = posix_spawn(pid, "/bin/sh", actions, attributes, shell_argv, env);
  free(shell_argv);
  return error;
}

/** Like execvp in the child: a name without a slash is looked for in the PATH the program gets. */
static int spawn_searching(pid_t *pid, const char *file, const char *cwd,
                           const posix_spawn_file_actions_t *actions, const posix_spawnattr_t *attributes,
                           char **argv, char **env) {
  if (strchr(file, '/') != NULL) return spawn_file(pid, file, actions, attributes, argv, env);
  if (*file == '\0') return ENOENT;
  const char *path = _PATH_DEFPATH;
  for (char **entry = env; *entry != NULL; entry++)
    if (strncmp(*entry, "PATH=", 5) == 0) path = *entry + 5;
  int error = ENOENT;
  char candidate[PATH_MAX];
  for (const char *start = path;; start++) {
    const char *end = strchrnul(start, ':');
    int directory_length = (int)(end - start);
    int length;
    if (directory_length == 0)
      length = snprintf(candidate, sizeof candidate, "%s/%s", cwd, file);
    else if (*start == '/')
      length = snprintf(candidate, sizeof candidate, "%.*s/%s", directory_length, start, file);
    else /* a relative entry is relative to the directory the program runs in */
      length = snprintf(candidate, sizeof candidate, "%s/%.*s/%s", cwd, directory_length, start, file);
    if (length > 0 && (size_t)length < sizeof candidate) {
      if (access(candidate, X_OK) == 0) {
        int spawned = spawn_file(pid, candidate, actions, attributes, argv, env);
        if (spawned != ENOENT && spawned != ENOTDIR && spawned != EACCES) return spawned;
        if (spawned == EACCES) error = EACCES;
      } else if (errno == EACCES) {
        error = EACCES;
      }
    }
    if (*end == '\0') return error;
    start = end;
  }
}

/** Starts a thread that waits for `pid` with every signal blocked (signals are the JavaScript thread's). */
static int start_waiter(waiter_t *waiter) {
  pthread_attr_t attributes;
  pthread_attr_init(&attributes);
  pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
  pthread_attr_setstacksize(&attributes,
                            WAITER_STACK_SIZE > PTHREAD_STACK_MIN ? WAITER_STACK_SIZE : PTHREAD_STACK_MIN);
  sigset_t all, previous;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &previous);
  pthread_t thread;
  int error = pthread_create(&thread, &attributes, wait_for_exit, waiter);
  pthread_sigmask(SIG_SETMASK, &previous, NULL);
  pthread_attr_destroy(&attributes);
  return error;
}

/** A JavaScript array of descriptors as a new C array (count in *count), or NULL with *count 0 when absent. */
static int descriptors_of(napi_env env, napi_value value, int **fds, uint32_t *count) {
  *fds = NULL;
  *count = 0;
  napi_valuetype type;
  if (napi_typeof(env, value, &type) != napi_ok) return -1;
  if (type == napi_undefined) return 0;
  if (napi_get_array_length(env, value, count) != napi_ok) return -1;
  if (*count == 0) return 0;
  *fds = calloc(*count, sizeof **fds);
  if (*fds == NULL) return -1;
  for (uint32_t i = 0; i < *count; i++) {
    napi_value element;
    if (napi_get_element(env, value, i, &element) != napi_ok ||
        napi_get_value_int32(env, element, &(*fds)[i]) != napi_ok || (*fds)[i] < 0)
      return -1;
  }
  return 0;
}

/**
 * File actions that put each of `fds` at 3, 4, … in order. They are first parked above every descriptor
 * involved, so that putting one in place never closes another not yet moved. 0, or the error of an
 * action that could not be added (a descriptor past the process's limit).
 */
static int add_passed_descriptors(posix_spawn_file_actions_t *actions, const int *fds, uint32_t count,
                                  int highest_used) {
  int parked = highest_used;
  if (parked < 2 + (int)count) parked = 2 + (int)count;
  for (uint32_t i = 0; i < count; i++)
    if (fds[i] > parked) parked = fds[i];
  parked++;
  int error = 0;
  for (uint32_t i = 0; i < count && error == 0; i++)
    error = posix_spawn_file_actions_adddup2(actions, fds[i], parked + (int)i);
  for (uint32_t i = 0; i < count && error == 0; i++) {
    error = posix_spawn_file_actions_adddup2(actions, parked + (int)i, 3 + (int)i);
    if (error == 0) error = posix_spawn_file_actions_addclose(actions, parked + (int)i);
  }
  return error;
}

static napi_value number(napi_env env, int value) {
  napi_value result;
  napi_create_int32(env, value, &result);
  return result;
}

static napi_value spawn_program(napi_env env, napi_callback_info info) {
  size_t argc = 6;
  napi_value args[6];
  if (napi_get_cb_info(env, info, &argc, args, NULL, NULL) != napi_ok || argc < 5) {
    napi_throw_type_error(env, NULL, "spawn(file, argv, env, cwd, onExit, passFds?)");
    return NULL;
  }
  if (argc < 6) napi_get_undefined(env, &args[5]);
  char *file = string_of(env, args[0]);
  char **argv = strings_of(env, args[1]);
  char **program_env = strings_of(env, args[2]);
  char *cwd = string_of(env, args[3]);
  int *pass_fds = NULL;
  uint32_t pass_count = 0;
  int pass_fds_ok = descriptors_of(env, args[5], &pass_fds, &pass_count) == 0;
  napi_value result = NULL;
  int out[2] = {-1, -1}, err[2] = {-1, -1};
  if (file == NULL || argv == NULL || argv[0] == NULL || program_env == NULL || cwd == NULL) {
    napi_throw_type_error(env, NULL, "spawn: file, argv, env and cwd must be strings and string arrays");
    goto done;
  }
  if (!pass_fds_ok) {
    napi_throw_type_error(env, NULL, "spawn: passFds must be an array of descriptors");
    goto done;
  }
  if (pipe2(out, O_CLOEXEC) != 0 || pipe2(err, O_CLOEXEC) != 0) {
    result = number(env, -errno);
    goto done;
  }

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out[1], 1);
  posix_spawn_file_actions_adddup2(&actions, err[1], 2);
  int highest_pipe = out[1] > err[1] ? out[1] : err[1];
  int passing = add_passed_descriptors(&actions, pass_fds, pass_count, highest_pipe);
  posix_spawn_file_actions_addchdir_np(&actions, cwd);
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  sigset_t every_signal, no_signal;
  sigfillset(&every_signal);
  sigemptyset(&no_signal);
  posix_spawnattr_setsigdefault(&attributes, &every_signal);
  posix_spawnattr_setsigmask(&attributes, &no_signal);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
  pid_t pid = 0;
  int error = passing != 0 ? passing : spawn_searching(&pid, file, cwd, &actions, &attributes, argv, program_env);
  posix_spawnattr_destroy(&attributes);
  posix_spawn_file_actions_destroy(&actions);
  close(out[1]);
  close(err[1]);
  out[1] = err[1] = -1;
  if (error != 0) {
    result = number(env, -error);
    goto done;
  }

  waiter_t *waiter = calloc(1, sizeof *waiter);
  napi_value resource_name;
  napi_create_string_utf8(env, "program-spawn exit", NAPI_AUTO_LENGTH, &resource_name);
  if (waiter == NULL || napi_create_threadsafe_function(env, args[4], NULL, resource_name, 0, 1, NULL, NULL, waiter,
                                                        call_on_exit, &waiter->on_exit) != napi_ok) {
    error = ENOMEM;
  } else {
    pthread_mutex_init(&waiter->lock, NULL);
    waiter->environment_alive = 1;
    waiter->holders = 2; /* the waiting thread and the environment's cleanup hook */
    waiter->pid = pid;
    error = start_waiter(waiter);
    if (error == 0) {
      napi_add_env_cleanup_hook(env, environment_gone, waiter);
    } else {
      napi_release_threadsafe_function(waiter->on_exit, napi_tsfn_abort);
      pthread_mutex_destroy(&waiter->lock);
    }
  }
  if (error != 0) {
    // Nobody would wait for it: end it here rather than leave it running unseen.
    free(waiter);
    kill(pid, SIGKILL);
    while (waitpid(pid, NULL, 0) < 0 && errno == EINTR) continue;
    result = number(env, -error);
    goto done;
  }
  napi_create_array_with_length(env, 3, &result);
  napi_set_element(env, result, 0, number(env, pid));
  napi_set_element(env, result, 1, number(env, out[0]));
  napi_set_element(env, result, 2, number(env, err[0]));
  out[0] = err[0] = -1;

done:
  for (int i = 0; i < 2; i++) {
    if (out[i] >= 0) close(out[i]);
    if (err[i] >= 0) close(err[i]);
  }
  free(pass_fds);
  free(file);
  free(cwd);
  free_strings(argv);
  free_strings(program_env);
  return result;
}

NAPI_MODULE_INIT() {
  napi_value spawn;
  napi_create_function(env, "spawn", NAPI_AUTO_LENGTH, spawn_program, NULL, &spawn);
  napi_set_named_property(env, exports, "spawn", spawn);
  napi_value passes_descriptors;
  napi_get_boolean(env, true, &passes_descriptors);
  napi_set_named_property(env, exports, "passesDescriptors", passes_descriptors);
  return exports;
}
