//! Maximum matching in a general graph (Edmonds' blossom algorithm, O(V³)), used by the
//! Swiss pairing to know at once whether the players left can all still be paired (the
//! completion criterion C4 of C.04.3) instead of searching for it.

const NONE: usize = usize::MAX;

/// The size of a maximum matching of the undirected graph given by its adjacency lists
/// (`adjacency[v]` lists the neighbours of `v`; edges may be listed from one side only).
pub(crate) fn maximum_matching(adjacency: &[Vec<usize>]) -> usize {
    let n = adjacency.len();
    let mut neighbours: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (v, list) in adjacency.iter().enumerate() {
        for &w in list {
            if w != v && w < n {
                neighbours[v].push(w);
                neighbours[w].push(v);
            }
        }
    }
    let mut blossom = Blossom {
        neighbours: &neighbours,
        mate: vec![NONE; n],
        parent: vec![NONE; n],
        base: (0..n).collect(),
        used: vec![false; n],
        in_blossom: vec![false; n],
    };
    // A greedy start makes the augmenting searches fewer.
    for (v, list) in neighbours.iter().enumerate() {
        if blossom.mate[v] == NONE {
            if let Some(&w) = list.iter().find(|&&w| blossom.mate[w] == NONE) {
                blossom.mate[v] = w;
                blossom.mate[w] = v;
            }
        }
    }
    for root in 0..n {
        if blossom.mate[root] == NONE {
            if let Some(mut v) = blossom.find_augmenting_path(root) {
                while v != NONE {
                    let pv = blossom.parent[v];
                    let next = blossom.mate[pv];
                    blossom.mate[v] = pv;
                    blossom.mate[pv] = v;
                    v = next;
                }
            }
        }
    }
    blossom.mate.iter().filter(|&&m| m != NONE).count() / 2
}

struct Blossom<'a> {
    neighbours: &'a [Vec<usize>],
    mate: Vec<usize>,
    parent: Vec<usize>,
    base: Vec<usize>,
    used: Vec<bool>,
    in_blossom: Vec<bool>,
}

impl Blossom<'_> {
    /// The lowest common ancestor of `a` and `b` in the alternating forest, by bases.
    fn common_base(&self, mut a: usize, mut b: usize) -> usize {
        let mut seen = vec![false; self.mate.len()];
        loop {
            a = self.base[a];
            seen[a] = true;
            if self.mate[a] == NONE {
                break;
            }
            a = self.parent[self.mate[a]];
        }
        loop {
            b = self.base[b];
            if seen[b] {
                return b;
            }
            b = self.parent[self.mate[b]];
        }
    }

    fn mark_path(&mut self, mut v: usize, base: usize, mut child: usize) {
        while self.base[v] != base {
            self.in_blossom[self.base[v]] = true;
            self.in_blossom[self.base[self.mate[v]]] = true;
            self.parent[v] = child;
            child = self.mate[v];
            v = self.parent[self.mate[v]];
        }
    }

    /// The free vertex ending an augmenting path from `root`, with `parent` describing it.
    fn find_augmenting_path(&mut self, root: usize) -> Option<usize> {
        let n = self.mate.len();
        self.used.iter_mut().for_each(|u| *u = false);
        self.parent.iter_mut().for_each(|p| *p = NONE);
        for (i, b) in self.base.iter_mut().enumerate() {
            *b = i;
        }
        self.used[root] = true;
        let mut queue = std::collections::VecDeque::from([root]);
        while let Some(v) = queue.pop_front() {
            for i in 0..self.neighbours[v].len() {
                let to = self.neighbours[v][i];
                if self.base[v] == self.base[to] || self.mate[v] == to {
                    continue;
                }
                if to == root || (self.mate[to] != NONE && self.parent[self.mate[to]] != NONE) {
                    let base = self.common_base(v, to);
                    self.in_blossom.iter_mut().for_each(|b| *b = false);
                    self.mark_path(v, base, to);
                    self.mark_path(to, base, v);
                    for u in 0..n {
                        if self.in_blossom[self.base[u]] {
                            self.base[u] = base;
                            if !self.used[u] {
                                self.used[u] = true;
                                queue.push_back(u);
                            }
                        }
                    }
                } else if self.parent[to] == NONE {
                    self.parent[to] = v;
                    if self.mate[to] == NONE {
                        return Some(to);
                    }
                    let next = self.mate[to];
                    self.used[next] = true;
                    queue.push_back(next);
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::maximum_matching;

    fn graph(n: usize, edges: &[(usize, usize)]) -> Vec<Vec<usize>> {
        let mut adjacency = vec![Vec::new(); n];
        for &(a, b) in edges {
            adjacency[a].push(b);
        }
        adjacency
    }

    #[test]
    fn matchings_of_small_graphs() {
        assert_eq!(maximum_matching(&graph(0, &[])), 0);
        assert_eq!(maximum_matching(&graph(3, &[(0, 1), (1, 2), (2, 0)])), 1, "a triangle");
        assert_eq!(maximum_matching(&graph(4, &[(0, 1), (1, 2), (2, 3)])), 2, "a path");
        assert_eq!(maximum_matching(&graph(4, &[(0, 1), (0, 2), (0, 3)])), 1, "a star");
        // A blossom: the odd cycle 0-1-2-3-4 with a stem 5-0 and a tail 2-6: the greedy
        // start (0-1, 2-3) must be augmented through the blossom.
        let flower = graph(7, &[(0, 1), (1, 2), (2, 3), (3, 4), (4, 0), (5, 0), (2, 6)]);
        assert_eq!(maximum_matching(&flower), 3);
        // Two triangles joined by an edge: perfect.
        let bowtie = graph(6, &[(0, 1), (1, 2), (2, 0), (3, 4), (4, 5), (5, 3), (2, 3)]);
        assert_eq!(maximum_matching(&bowtie), 3);
    }

    /// The maximum matching by trying everything (small graphs only).
    fn brute_force(n: usize, edges: &[(usize, usize)], used: &mut Vec<bool>, from: usize) -> usize {
        let Some(v) = (from..n).find(|&v| !used[v]) else { return 0 };
        used[v] = true;
        let mut best = brute_force(n, edges, used, v + 1); // v stays single
        for &(a, b) in edges {
            let w = if a == v {
                b
            } else if b == v {
                a
            } else {
                continue;
            };
            if !used[w] {
                used[w] = true;
                best = best.max(1 + brute_force(n, edges, used, v + 1));
                used[w] = false;
            }
        }
        used[v] = false;
        best
    }

    #[test]
    fn random_graphs_match_the_brute_force() {
        let mut state = 7u64;
        let mut next = || {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            state >> 33
        };
        for _ in 0..300 {
            let n = (next() % 11) as usize;
            let density = next() % 100;
            let mut edges = Vec::new();
            for a in 0..n {
                for b in a + 1..n {
                    if next() % 100 < density {
                        edges.push((a, b));
                    }
                }
            }
            let expected = brute_force(n, &edges, &mut vec![false; n], 0);
            assert_eq!(maximum_matching(&graph(n, &edges)), expected, "{n} vertices: {edges:?}");
        }
    }

    #[test]
    fn a_complete_graph_minus_a_perfect_matching_still_has_one() {
        // K6 without 0-1, 2-3, 4-5 (the players who have met): 0-2, 1-4, 3-5...
        let mut edges = Vec::new();
        for a in 0..6 {
            for b in a + 1..6 {
                if !(a % 2 == 0 && b == a + 1) {
                    edges.push((a, b));
                }
            }
        }
        assert_eq!(maximum_matching(&graph(6, &edges)), 3);
    }
}
