package io.sluice.dedup;

/**
 * Union-find over dense node ids 0..n-1 in two int arrays, with datatrove's merge rule: union by
 * size, and on equal sizes the root of the pair's first node stays root. That rule decides which
 * document of a cluster survives, so unions must be applied in datatrove's order (.dups files by
 * name, pairs in file order) for the same survivors.
 */
public final class UnionFind {
    private final int[] parent;
    private final int[] size;

    public UnionFind(int n) {
        parent = new int[n];
        size = new int[n];
        for (int i = 0; i < n; i++) {
            parent[i] = i;
            size[i] = 1;
        }
    }

    public int find(int x) {
        int root = x;
        while (parent[root] != root) {
            root = parent[root];
        }
        while (parent[x] != root) { // path compression
            int next = parent[x];
            parent[x] = root;
            x = next;
        }
        return root;
    }

    /** Joins the sets of {@code a} and {@code b}; the larger set's root stays root, {@code a}'s on a tie. */
    public void union(int a, int b) {
        int ra = find(a);
        int rb = find(b);
        if (ra == rb) {
            return;
        }
        if (size[ra] < size[rb]) {
            int t = ra;
            ra = rb;
            rb = t;
        }
        parent[rb] = ra;
        size[ra] += size[rb];
    }

    /** The size of the set whose root is {@code root}. */
    public int sizeOfRoot(int root) {
        return size[root];
    }
}
