/* The pod sandbox's process (the "pause" container): holds the pod's namespaces, reaps zombies,
 * exits on SIGINT/SIGTERM. The same job as Kubernetes' build/pause/linux/pause.c, written here so
 * that the sandbox image is made locally (no registry). Compiled static by deploy/cluster/build.sh. */
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static void quit(int sig) { _exit(sig == SIGTERM || sig == SIGINT ? 0 : 1); }

static void reap(int sig) {
  (void)sig;
  while (waitpid(-1, NULL, WNOHANG) > 0) {
  }
}

int main(void) {
  struct sigaction q = {.sa_handler = quit};
  struct sigaction r = {.sa_handler = reap, .sa_flags = SA_NOCLDSTOP};
  sigaction(SIGINT, &q, NULL);
  sigaction(SIGTERM, &q, NULL);
  sigaction(SIGCHLD, &r, NULL);
  for (;;) pause();
  return 1;
}
