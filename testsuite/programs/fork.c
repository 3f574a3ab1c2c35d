/* Forks once; parent and child take different, named paths.  */
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

int in_child(int v)
{
    return v + 1;
}

int in_parent(int v)
{
    return v + 2;
}

int main(void)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    pid_t pid = fork();
    if (pid == 0) {
        printf("child got %d\n", in_child(40));
        return 3;
    }
    int status = 0;
    waitpid(pid, &status, 0);
    printf("parent got %d, child status %d\n", in_parent(40),
           WEXITSTATUS(status));
    return 0;
}
