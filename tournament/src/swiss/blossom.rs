//! Maximum-weight matching in a general graph (Edmonds' blossom algorithm, primal-dual),
//! with cheap updates: changing the edges of a few vertices and asking again costs a few
//! augmentations, not a new solution.
//!
//! The structure follows the O(n³) formulation in Galil's survey ("Efficient algorithms
//! for finding maximum matching in graphs", 1986) as Joris van Rantwijk's reference
//! implementation lays it out (labels S and T, blossoms with bases and child cycles, the
//! four kinds of dual change). Two changes make it incremental, as in bbpPairings' matcher:
//!
//! * each stage grows ONE alternating tree, from an exposed vertex whose dual is not zero;
//!   the other exposed vertices may be reached and end the stage with an augmentation. A
//!   stage also ends when a dual in the tree falls to zero: at the root, which then stays
//!   exposed, or elsewhere, and the path from the root to it is flipped (so the vertex with
//!   the zero dual is the one left exposed). Every stage leaves one vertex fewer that breaks
//!   the optimality conditions, so the result is a maximum-weight matching from any
//!   feasible start;
//! * before the edges of a vertex change, the vertex is freed: unmatched (with its mate),
//!   taken out of its blossoms (each blossom's dual moves onto its vertices, which keeps
//!   every edge feasible), and its dual is raised afterwards just enough for its new edges.
//!
//! The graph is complete; a weight of zero is no edge and is never matched. Duals are
//! kept doubled as in the reference (`slack = d(i) + d(j) - 2 w(i, j)`), so every value
//! stays integral.

use super::wide::Wide;

const FREE: u8 = 0;
const S: u8 = 1;
const T: u8 = 2;

/// An oriented edge `(remote, near)`: `remote` is the endpoint the edge points at.
type End = (usize, usize);

fn flip((remote, near): End) -> End {
    (near, remote)
}

pub(crate) struct Matcher<const N: usize> {
    n: usize,
    /// Twice each weight (the slack's unit).
    doubled: Vec<Wide<N>>,
    /// Whether the edge exists (a weight not zero).
    edge: Vec<bool>,
    /// The vertices of each blossom (a vertex: itself).
    leaf: Vec<Vec<usize>>,
    /// Top-level blossoms labelled in this stage, and whether each is listed.
    touched: Vec<usize>,
    listed: Vec<bool>,
    /// Vertices whose least-slack edge was set in this stage.
    best_set: Vec<usize>,
    mate: Vec<Option<usize>>,
    /// Vertex duals (`0..n`), then blossom duals (`n..2n`).
    dual: Vec<Wide<N>>,
    inblossom: Vec<usize>,
    parent: Vec<Option<usize>>,
    childs: Vec<Vec<usize>>,
    /// `endps[b][i]` joins `childs[b][i]` (its remote end) and `childs[b][i + 1]`.
    endps: Vec<Vec<End>>,
    base: Vec<Option<usize>>,
    unused: Vec<usize>,
    label: Vec<u8>,
    marked: Vec<bool>,
    labelend: Vec<Option<End>>,
    bestedge: Vec<Option<End>>,
    blossombestedges: Vec<Option<Vec<End>>>,
    /// `allowed[i * n + j] == stamp`: the edge was tight in this stage.
    allowed: Vec<u32>,
    stamp: u32,
    queue: Vec<usize>,
    dirty: Vec<bool>,
    dirty_list: Vec<usize>,
}

impl<const N: usize> Matcher<N> {
    /// A graph of `n` vertices and no edges.
    pub(crate) fn new(n: usize) -> Matcher<N> {
        Matcher {
            n,
            doubled: vec![Wide::ZERO; n * n],
            edge: vec![false; n * n],
            leaf: (0..2 * n).map(|v| if v < n { vec![v] } else { Vec::new() }).collect(),
            touched: Vec::new(),
            listed: vec![false; 2 * n],
            best_set: Vec::new(),
            mate: vec![None; n],
            dual: vec![Wide::ZERO; 2 * n],
            inblossom: (0..n).collect(),
            parent: vec![None; 2 * n],
            childs: vec![Vec::new(); 2 * n],
            endps: vec![Vec::new(); 2 * n],
            base: (0..n).map(Some).chain((0..n).map(|_| None)).collect(),
            unused: (n..2 * n).rev().collect(),
            label: vec![FREE; 2 * n],
            marked: vec![false; 2 * n],
            labelend: vec![None; 2 * n],
            bestedge: vec![None; 2 * n],
            blossombestedges: vec![None; 2 * n],
            allowed: vec![0; n * n],
            stamp: 0,
            queue: Vec::new(),
            dirty: vec![false; n],
            dirty_list: Vec::new(),
        }
    }

    pub(crate) fn size(&self) -> usize {
        self.n
    }

    /// The weight of the edge `{i, j}` (zero: none).
    #[cfg(test)]
    pub(crate) fn weight(&self, i: usize, j: usize) -> Wide<N> {
        self.doubled[i * self.n + j].half()
    }

    fn has_edge(&self, i: usize, j: usize) -> bool {
        self.edge[i * self.n + j]
    }

    /// Sets the weight of the edge `{vertex, neighbour}` (zero removes it); `vertex` is the
    /// one freed for the change (bbpPairings' convention: the weights of `vertex` change).
    pub(crate) fn set_weight(&mut self, vertex: usize, neighbour: usize, weight: Wide<N>) {
        debug_assert_ne!(vertex, neighbour);
        let n = self.n;
        let twice = weight.wrapping_add(&weight);
        let old = self.doubled[vertex * n + neighbour];
        if old == twice {
            return;
        }
        for at in [vertex * n + neighbour, neighbour * n + vertex] {
            self.doubled[at] = twice;
            self.edge[at] = !weight.is_zero();
        }
        if self.dirty[vertex] || self.dirty[neighbour] {
            // Its dual is set again from all its edges before the next matching.
            return;
        }
        let (top_v, top_n) = (self.inblossom[vertex], self.inblossom[neighbour]);
        if top_v == top_n {
            self.free_vertex(vertex);
            return;
        }
        let sum = self.dual[vertex].wrapping_add(&self.dual[neighbour]);
        if self.mate[vertex] == Some(neighbour) {
            // A matched edge must stay tight: a heavier one by raising the dual of an end
            // that is in no blossom (its other edges only get more slack).
            if twice > old {
                let raise = twice.wrapping_sub(&sum);
                if top_v == vertex {
                    self.dual[vertex] = self.dual[vertex].wrapping_add(&raise);
                    return;
                }
                if top_n == neighbour {
                    self.dual[neighbour] = self.dual[neighbour].wrapping_add(&raise);
                    return;
                }
            }
            self.free_vertex(vertex);
        } else if sum < twice {
            // An edge that is not matched needs only to stay feasible.
            if top_v == vertex && self.mate[vertex].is_none() {
                // An exposed vertex: raise its dual; it becomes a root to grow again.
                self.dual[vertex] = self.dual[vertex].wrapping_add(&twice.wrapping_sub(&sum));
            } else {
                self.free_vertex(vertex);
            }
        }
    }

    /// The mate of every vertex (itself when unmatched), after [`Matcher::compute`].
    pub(crate) fn matching(&self) -> Vec<usize> {
        (0..self.n).map(|v| self.mate[v].unwrap_or(v)).collect()
    }

    fn slack(&self, i: usize, j: usize) -> Wide<N> {
        self.dual[i].wrapping_add(&self.dual[j]).wrapping_sub(&self.doubled[i * self.n + j])
    }

    fn leaves(&self, b: usize) -> Vec<usize> {
        self.leaf[b].clone()
    }

    /// Notes a top-level blossom labelled in this stage (its duals change with the tree).
    fn touch(&mut self, b: usize) {
        if !self.listed[b] {
            self.listed[b] = true;
            self.touched.push(b);
        }
    }

    /// Unmatches `vertex` (and its blossom's mate), takes it out of its blossoms and marks
    /// its dual to be set again by the next [`Matcher::compute`].
    fn free_vertex(&mut self, vertex: usize) {
        if self.dirty[vertex] {
            return;
        }
        self.dirty[vertex] = true;
        self.dirty_list.push(vertex);
        let top = self.inblossom[vertex];
        let base = self.base[top].expect("a top-level blossom has a base");
        if let Some(m) = self.mate[base] {
            self.mate[base] = None;
            self.mate[m] = None;
        }
        if top >= self.n {
            self.augment_blossom(top, vertex);
        }
        self.mate[vertex] = None;
        while self.inblossom[vertex] != vertex {
            let b = self.inblossom[vertex];
            let z = self.dual[b];
            for x in self.leaves(b) {
                self.dual[x] = self.dual[x].wrapping_add(&z);
            }
            self.dual[b] = Wide::ZERO;
            for s in std::mem::take(&mut self.childs[b]) {
                self.parent[s] = None;
                if s < self.n {
                    self.inblossom[s] = s;
                } else {
                    for x in self.leaves(s) {
                        self.inblossom[x] = s;
                    }
                }
            }
            self.recycle(b);
        }
    }

    fn recycle(&mut self, b: usize) {
        self.label[b] = FREE;
        self.labelend[b] = None;
        self.childs[b] = Vec::new();
        self.endps[b] = Vec::new();
        self.leaf[b] = Vec::new();
        self.base[b] = None;
        self.blossombestedges[b] = None;
        self.bestedge[b] = None;
        self.parent[b] = None;
        self.unused.push(b);
    }

    /// A maximum-weight matching for the current weights.
    pub(crate) fn compute(&mut self) {
        let dirty = std::mem::take(&mut self.dirty_list);
        for &v in &dirty {
            self.dual[v] = Wide::ZERO;
        }
        for &v in &dirty {
            let mut best = Wide::ZERO;
            for j in 0..self.n {
                if j == v || !self.has_edge(v, j) {
                    continue;
                }
                let twice = self.doubled[v * self.n + j];
                if twice > self.dual[j] {
                    let need = twice.wrapping_sub(&self.dual[j]);
                    if need > best {
                        best = need;
                    }
                }
            }
            self.dual[v] = best;
            self.dirty[v] = false;
        }
        while let Some(root) = (0..self.n).find(|&v| self.mate[v].is_none() && !self.dual[v].is_zero()) {
            self.stage(root);
        }
    }

    fn is_allowed(&self, i: usize, j: usize) -> bool {
        self.allowed[i * self.n + j] == self.stamp
    }

    fn allow(&mut self, (i, j): End) {
        let n = self.n;
        self.allowed[i * n + j] = self.stamp;
        self.allowed[j * n + i] = self.stamp;
    }

    fn stage(&mut self, root: usize) {
        let n = self.n;
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.allowed.iter_mut().for_each(|a| *a = u32::MAX);
            self.stamp = 1;
        }
        for b in std::mem::take(&mut self.touched) {
            self.listed[b] = false;
        }
        self.best_set.clear();
        self.label.iter_mut().for_each(|l| *l = FREE);
        self.labelend.iter_mut().for_each(|l| *l = None);
        self.bestedge.iter_mut().for_each(|b| *b = None);
        self.blossombestedges.iter_mut().for_each(|b| *b = None);
        self.queue.clear();
        self.assign_label(root, S, None);
        loop {
            while let Some(v) = self.queue.pop() {
                for w in 0..n {
                    if w == v || !self.edge[v * n + w] {
                        continue;
                    }
                    // A blossom formed while scanning may hold both by now.
                    let (bv, bw) = (self.inblossom[v], self.inblossom[w]);
                    if bv == bw {
                        continue;
                    }
                    let mut kslack = None;
                    if !self.is_allowed(v, w) {
                        let s = self.slack(v, w);
                        if s.is_zero() {
                            self.allow((v, w));
                        }
                        kslack = Some(s);
                    }
                    if self.is_allowed(v, w) {
                        if self.label[bw] == FREE {
                            let wbase = self.base[bw].expect("top-level");
                            if self.mate[wbase].is_none() {
                                self.augment(v, w);
                                self.end_stage();
                                return;
                            }
                            self.assign_label(w, T, Some((v, w)));
                        } else if self.label[bw] == S {
                            match self.scan_blossom(v, w) {
                                Some(base) => self.add_blossom(base, (v, w)),
                                None => {
                                    self.augment(v, w);
                                    self.end_stage();
                                    return;
                                }
                            }
                        } else if self.label[w] == FREE {
                            self.label[w] = T;
                            self.labelend[w] = Some((v, w));
                        }
                    } else if self.label[bw] == S {
                        let s = kslack.expect("computed");
                        let bv = self.inblossom[v];
                        if self.bestedge[bv].is_none_or(|(a, b)| s < self.slack(a, b)) {
                            self.bestedge[bv] = Some((v, w));
                        }
                    } else if self.label[w] == FREE {
                        let s = kslack.expect("computed");
                        if self.bestedge[w].is_none_or(|(a, b)| s < self.slack(a, b)) {
                            if self.bestedge[w].is_none() {
                                self.best_set.push(w);
                            }
                            self.bestedge[w] = Some((v, w));
                        }
                    }
                }
            }
            // The dual change: the least of the four limits (ties to the lower kind).
            // Only the tree's blossoms change; the free vertices it reaches bound it.
            let tree: Vec<usize> = self
                .touched
                .iter()
                .copied()
                .filter(|&b| self.parent[b].is_none() && self.base[b].is_some() && self.inblossom_top(b))
                .collect();
            let mut delta: Option<(u8, Wide<N>)> = None;
            let mut zero_at: Option<usize> = None;
            for &b in &tree {
                if self.label[b] == S {
                    for k in 0..self.leaf[b].len() {
                        let v = self.leaf[b][k];
                        let better = match delta {
                            None => true,
                            Some((_, d)) => {
                                self.dual[v] < d || (self.dual[v] == d && zero_at.is_some_and(|z| v < z))
                            }
                        };
                        if better {
                            delta = Some((1, self.dual[v]));
                            zero_at = Some(v);
                        }
                    }
                }
            }
            let mut edge: Option<End> = None;
            let mut best_free: Option<(Wide<N>, usize)> = None;
            for k in 0..self.best_set.len() {
                let v = self.best_set[k];
                if self.label[self.inblossom[v]] == FREE {
                    if let Some((a, b)) = self.bestedge[v] {
                        let d = self.slack(a, b);
                        if best_free.is_none_or(|(best, at)| d < best || (d == best && v < at)) {
                            best_free = Some((d, v));
                        }
                    }
                }
            }
            if let Some((d, v)) = best_free {
                if delta.is_none_or(|(_, best)| d < best) {
                    delta = Some((2, d));
                    edge = self.bestedge[v];
                }
            }
            let mut best_s: Option<(Wide<N>, usize)> = None;
            for &b in &tree {
                if self.label[b] == S {
                    if let Some((x, y)) = self.bestedge[b] {
                        let d = self.slack(x, y).half();
                        if best_s.is_none_or(|(best, at)| d < best || (d == best && b < at)) {
                            best_s = Some((d, b));
                        }
                    }
                }
            }
            if let Some((d, b)) = best_s {
                if delta.is_none_or(|(_, best)| d < best) {
                    delta = Some((3, d));
                    edge = self.bestedge[b];
                }
            }
            let mut expand = None;
            let mut best_t: Option<(Wide<N>, usize)> = None;
            for &b in &tree {
                if b >= n
                    && self.label[b] == T
                    && best_t.is_none_or(|(best, at)| self.dual[b] < best || (self.dual[b] == best && b < at))
                {
                    best_t = Some((self.dual[b], b));
                }
            }
            if let Some((d, b)) = best_t {
                if delta.is_none_or(|(_, best)| d < best) {
                    delta = Some((4, d));
                    expand = Some(b);
                }
            }
            let (kind, delta) = delta.expect("the root is an S-vertex");
            for &b in &tree {
                let label = self.label[b];
                for k in 0..self.leaf[b].len() {
                    let v = self.leaf[b][k];
                    match label {
                        S => self.dual[v] = self.dual[v].wrapping_sub(&delta),
                        T => self.dual[v] = self.dual[v].wrapping_add(&delta),
                        _ => {}
                    }
                }
                if b >= n {
                    match label {
                        S => self.dual[b] = self.dual[b].wrapping_add(&delta),
                        T => self.dual[b] = self.dual[b].wrapping_sub(&delta),
                        _ => {}
                    }
                }
            }
            match kind {
                1 => {
                    // A dual of the tree fell to zero: the root's (it stays exposed), or
                    // another S-vertex's, which takes the root's place as the exposed one.
                    let root_base = self.base[self.inblossom[root]].expect("top-level");
                    let at = if self.dual[root_base].is_zero() {
                        root_base
                    } else {
                        zero_at.expect("a vertex with the least dual")
                    };
                    if at != root_base {
                        self.augment_side(at, None);
                    }
                    self.end_stage();
                    return;
                }
                2 => {
                    let (mut i, mut j) = edge.expect("an edge");
                    self.allow((i, j));
                    if self.label[self.inblossom[i]] == FREE {
                        std::mem::swap(&mut i, &mut j);
                    }
                    let _ = j;
                    self.queue.push(i);
                }
                3 => {
                    let (i, j) = edge.expect("an edge");
                    self.allow((i, j));
                    self.queue.push(i);
                }
                _ => self.expand_blossom(expand.expect("a T-blossom"), false),
            }
        }
    }

    /// Whether `b` is a top-level blossom (its vertices' `inblossom` is `b`).
    fn inblossom_top(&self, b: usize) -> bool {
        self.leaf[b].first().is_some_and(|&v| self.inblossom[v] == b)
    }

    fn end_stage(&mut self) {
        for k in 0..self.touched.len() {
            let b = self.touched[k];
            if b >= self.n
                && self.parent[b].is_none()
                && self.base[b].is_some()
                && self.inblossom_top(b)
                && self.label[b] == S
                && self.dual[b].is_zero()
            {
                self.expand_blossom(b, true);
            }
        }
    }

    fn assign_label(&mut self, w: usize, t: u8, p: Option<End>) {
        let b = self.inblossom[w];
        self.touch(b);
        self.label[w] = t;
        self.label[b] = t;
        self.labelend[w] = p;
        self.labelend[b] = p;
        self.bestedge[w] = None;
        self.bestedge[b] = None;
        if t == S {
            let leaves = self.leaves(b);
            self.queue.extend(leaves);
        } else {
            let base = self.base[b].expect("top-level");
            let m = self.mate[base].expect("a T-blossom's base is matched");
            self.assign_label(m, S, Some((base, m)));
        }
    }

    /// Traces back from `v` and `w` to the first common blossom (its base), or `None` when
    /// they lie in different trees.
    fn scan_blossom(&mut self, v: usize, w: usize) -> Option<usize> {
        let mut path = Vec::new();
        let mut found = None;
        let (mut v, mut w) = (Some(v), Some(w));
        while let Some(x) = v {
            let b = self.inblossom[x];
            if self.marked[b] {
                found = self.base[b];
                break;
            }
            path.push(b);
            self.marked[b] = true;
            v = match self.labelend[b] {
                None => None,
                Some((t, _)) => {
                    let bt = self.inblossom[t];
                    self.labelend[bt].map(|(s, _)| s)
                }
            };
            if w.is_some() {
                std::mem::swap(&mut v, &mut w);
            }
        }
        for b in path {
            self.marked[b] = false;
        }
        found
    }

    fn add_blossom(&mut self, base: usize, (v, w): End) {
        let n = self.n;
        let bb = self.inblossom[base];
        let mut bv = self.inblossom[v];
        let mut bw = self.inblossom[w];
        let b = self.unused.pop().expect("at most n blossoms");
        self.base[b] = Some(base);
        self.parent[b] = None;
        self.parent[bb] = Some(b);
        let mut path = Vec::new();
        let mut endps = Vec::new();
        while bv != bb {
            self.parent[bv] = Some(b);
            path.push(bv);
            let le = self.labelend[bv].expect("labelled");
            endps.push(le);
            bv = self.inblossom[le.0];
        }
        path.push(bb);
        path.reverse();
        endps.reverse();
        endps.push((v, w));
        while bw != bb {
            self.parent[bw] = Some(b);
            path.push(bw);
            let le = self.labelend[bw].expect("labelled");
            endps.push(flip(le));
            bw = self.inblossom[le.0];
        }
        self.label[b] = S;
        self.labelend[b] = self.labelend[bb];
        self.dual[b] = Wide::ZERO;
        self.childs[b] = path.clone();
        self.endps[b] = endps;
        self.leaf[b] = path.iter().flat_map(|&c| self.leaf[c].iter().copied()).collect();
        self.touch(b);
        for x in self.leaves(b) {
            if self.label[self.inblossom[x]] == T {
                self.queue.push(x);
            }
            self.inblossom[x] = b;
        }
        let mut bestedgeto: Vec<Option<End>> = vec![None; 2 * n];
        for &child in &path {
            let lists: Vec<Vec<End>> = match self.blossombestedges[child].take() {
                Some(list) => vec![list],
                None => self
                    .leaves(child)
                    .into_iter()
                    .map(|x| (0..n).filter(|&j| j != x && self.has_edge(x, j)).map(|j| (x, j)).collect())
                    .collect(),
            };
            for list in lists {
                for (mut i, mut j) in list {
                    if self.inblossom[j] == b {
                        std::mem::swap(&mut i, &mut j);
                    }
                    let bj = self.inblossom[j];
                    if bj != b
                        && self.label[bj] == S
                        && bestedgeto[bj].is_none_or(|(x, y)| self.slack(i, j) < self.slack(x, y))
                    {
                        bestedgeto[bj] = Some((i, j));
                    }
                }
            }
            self.bestedge[child] = None;
        }
        let list: Vec<End> = bestedgeto.into_iter().flatten().collect();
        let mut best: Option<End> = None;
        for &(i, j) in &list {
            if best.is_none_or(|(x, y)| self.slack(i, j) < self.slack(x, y)) {
                best = Some((i, j));
            }
        }
        self.blossombestedges[b] = Some(list);
        self.bestedge[b] = best;
    }

    fn expand_blossom(&mut self, b: usize, endstage: bool) {
        let n = self.n;
        let childs = self.childs[b].clone();
        for &s in &childs {
            self.parent[s] = None;
            if s < n {
                self.inblossom[s] = s;
            } else if endstage && self.dual[s].is_zero() {
                self.expand_blossom(s, endstage);
            } else {
                for x in self.leaves(s) {
                    self.inblossom[x] = s;
                }
            }
        }
        if !endstage && self.label[b] == T {
            let len = childs.len() as isize;
            let at = |j: isize| (((j % len) + len) % len) as usize;
            let le = self.labelend[b].expect("a T-blossom is labelled");
            let entrychild = self.inblossom[le.1];
            let mut j = childs.iter().position(|&c| c == entrychild).expect("a child") as isize;
            let (jstep, trick) = if j & 1 == 1 {
                j -= len;
                (1isize, false)
            } else {
                (-1isize, true)
            };
            let tr = isize::from(trick);
            let mut p = le;
            while j != 0 {
                // Relabel the T-sub-blossom.
                self.label[p.1] = FREE;
                let e = self.endps[b][at(j - tr)];
                let other = if trick { e.0 } else { e.1 };
                self.label[other] = FREE;
                self.assign_label(p.1, T, Some(p));
                // Step to the next S-sub-blossom and note its forward endpoint.
                self.allow(e);
                j += jstep;
                let e = self.endps[b][at(j - tr)];
                p = if trick { flip(e) } else { e };
                // Step to the next T-sub-blossom.
                self.allow(p);
                j += jstep;
            }
            let bv = childs[at(j)];
            self.touch(bv);
            self.label[p.1] = T;
            self.label[bv] = T;
            self.labelend[p.1] = Some(p);
            self.labelend[bv] = Some(p);
            self.bestedge[bv] = None;
            j += jstep;
            while childs[at(j)] != entrychild {
                let bv = childs[at(j)];
                if self.label[bv] == S {
                    j += jstep;
                    continue;
                }
                let reached = self.leaves(bv).into_iter().find(|&x| self.label[x] != FREE);
                if let Some(v) = reached {
                    self.label[v] = FREE;
                    let base = self.base[bv].expect("a child has a base");
                    let m = self.mate[base].expect("matched");
                    self.label[m] = FREE;
                    let le = self.labelend[v];
                    self.assign_label(v, T, le);
                }
                j += jstep;
            }
        }
        self.recycle(b);
    }

    /// Makes `v` the base of blossom `b`, rematching along the way.
    fn augment_blossom(&mut self, b: usize, v: usize) {
        let mut t = v;
        while self.parent[t] != Some(b) {
            t = self.parent[t].expect("v lies in b");
        }
        if t >= self.n {
            self.augment_blossom(t, v);
        }
        let len = self.childs[b].len() as isize;
        let at = |j: isize| (((j % len) + len) % len) as usize;
        let i = self.childs[b].iter().position(|&c| c == t).expect("a child");
        let mut j = i as isize;
        let (jstep, trick) = if j & 1 == 1 {
            j -= len;
            (1isize, false)
        } else {
            (-1isize, true)
        };
        while j != 0 {
            j += jstep;
            let t = self.childs[b][at(j)];
            let k = if trick { j - 1 } else { j };
            let e = self.endps[b][at(k)];
            let p = if trick { flip(e) } else { e };
            if t >= self.n {
                self.augment_blossom(t, p.0);
            }
            j += jstep;
            let t = self.childs[b][at(j)];
            if t >= self.n {
                self.augment_blossom(t, p.1);
            }
            self.mate[p.0] = Some(p.1);
            self.mate[p.1] = Some(p.0);
        }
        self.childs[b].rotate_left(i);
        self.endps[b].rotate_left(i);
        self.base[b] = self.base[self.childs[b][0]];
        debug_assert_eq!(self.base[b], Some(v));
    }

    /// Matches `v` and `w` and flips the alternating paths from both to their roots.
    fn augment(&mut self, v: usize, w: usize) {
        self.augment_side(v, Some(w));
        self.augment_side(w, Some(v));
    }

    /// Gives `s` the mate `p` (none: `s` is left exposed) and flips the path from its
    /// blossom to the root of its tree.
    fn augment_side(&mut self, mut s: usize, mut p: Option<usize>) {
        loop {
            let bs = self.inblossom[s];
            if bs >= self.n {
                self.augment_blossom(bs, s);
            }
            self.mate[s] = p;
            let Some((t, _)) = self.labelend[bs] else { break };
            let bt = self.inblossom[t];
            let (next, j) = self.labelend[bt].expect("a T-blossom is labelled");
            if bt >= self.n {
                self.augment_blossom(bt, j);
            }
            self.mate[j] = Some(next);
            p = Some(j);
            s = next;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Matcher, Wide};

    /// The best total weight by trying every matching (small graphs only).
    fn brute_force(n: usize, w: &[u64]) -> u64 {
        fn go(mask: u32, n: usize, w: &[u64], memo: &mut Vec<Option<u64>>) -> u64 {
            if let Some(v) = memo[mask as usize] {
                return v;
            }
            let Some(first) = (0..n).find(|&i| mask & (1 << i) == 0) else { return 0 };
            let with = mask | (1 << first);
            let mut best = go(with, n, w, memo);
            for j in first + 1..n {
                if with & (1 << j) == 0 && w[first * n + j] > 0 {
                    best = best.max(w[first * n + j] + go(with | (1 << j), n, w, memo));
                }
            }
            memo[mask as usize] = Some(best);
            best
        }
        go(0, n, w, &mut vec![None; 1 << n])
    }

    fn total(m: &Matcher<2>, n: usize) -> u64 {
        let mates = m.matching();
        let mut sum = 0;
        for v in 0..n {
            if mates[v] > v {
                assert!(!m.weight(v, mates[v]).is_zero(), "a matched edge exists");
                assert_eq!(mates[mates[v]], v);
                sum += m.weight(v, mates[v]).0[0];
            }
        }
        sum
    }

    #[test]
    fn finds_the_maximum_weight_on_random_graphs_and_after_updates() {
        let mut state = 0x9e3779b97f4a7c15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for case in 0..400 {
            let n = 2 + (next() % 11) as usize;
            let density = 1 + next() % 4;
            let range = if case % 3 == 0 { 4 } else { 1000 };
            let mut w = vec![0u64; n * n];
            let mut m = Matcher::<2>::new(n);
            for i in 0..n {
                for j in i + 1..n {
                    if next() % 4 < density {
                        let weight = 1 + next() % range;
                        w[i * n + j] = weight;
                        w[j * n + i] = weight;
                        m.set_weight(i, j, Wide::from_u64(weight));
                    }
                }
            }
            m.compute();
            assert_eq!(total(&m, n), brute_force(n, &w), "case {case}");
            for update in 0..6 {
                let changed = 1 + (next() % 3) as usize;
                for _ in 0..changed {
                    let v = (next() % n as u64) as usize;
                    for j in 0..n {
                        if j != v && next() % 3 == 0 {
                            let weight = if next() % 4 == 0 { 0 } else { 1 + next() % range };
                            w[v * n + j] = weight;
                            w[j * n + v] = weight;
                            m.set_weight(v, j, Wide::from_u64(weight));
                        }
                    }
                }
                m.compute();
                assert_eq!(total(&m, n), brute_force(n, &w), "case {case}, update {update}");
            }
        }
    }
}
