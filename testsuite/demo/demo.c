/* The demo's inferior: a short call chain that reads well in GDB.  */
#include <stdio.h>

struct point {
    int x, y;
};

static int distance2(struct point a, struct point b)
{
    int dx = a.x - b.x;
    int dy = a.y - b.y;
    return dx * dx + dy * dy;
}

int farthest(const struct point *pts, int count)
{
    int best = 0, best_d = -1;
    for (int i = 0; i < count; i++) {
        int d = distance2(pts[0], pts[i]);
        if (d > best_d) {
            best_d = d;
            best = i;
        }
    }
    return best;
}

int main(void)
{
    struct point pts[] = { { 0, 0 }, { 3, 4 }, { -6, 8 }, { 1, 1 } };
    int i = farthest(pts, 4);
    printf("farthest point: %d (%d, %d)\n", i, pts[i].x, pts[i].y);
    return 0;
}
