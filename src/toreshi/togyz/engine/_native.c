/* The engine's search in C: the same algorithm as search.py's Searcher._root/_negamax/_quiesce, node for node
 * in what it decides (move order, windows, quiescence, certain results, evaluation), only faster.
 *
 * Built by hatch_build.py with the machine's C compiler when the package is installed; when it cannot be built
 * the pure-Python search is used (toreshi.togyz.engine.search). The Python side owns iterative deepening,
 * aspiration windows, limits and callbacks; this module searches one depth from the root at a time and keeps
 * its transposition table, killers and history between the depths of one search (reset() starts a search).
 *
 * State layout (23 ints, as board.py): holes 0-17, kazan W, kazan B, tuzdyk W, tuzdyk B, side to move.
 * Single-threaded by design: the tables are module globals and the GIL is held throughout.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define API_VERSION 1
#define HOLES 9
#define RING 18
#define NFIELDS 23
#define WINNING 82
#define WIN 1000000
#define MAX_PLY 1000
#define WIN_BOUND (WIN - MAX_PLY)
#define INF (WIN + 1)
#define QUIESCENCE_PLIES 8
#define PLY_CAP 160
#define NFEATURES 7
#define ATSYZ_MARGIN 8
#define SCALE 81
#define EXACT 0
#define LOWER 1
#define UPPER 2

typedef struct {
    uint64_t key;
    int32_t score;
    uint8_t generation; /* the search that wrote it: reset() starts a new one instead of clearing 16 MB */
    int8_t depth;
    int8_t flag;
    int8_t move;
} Entry;

static Entry *table = NULL;
static uint64_t table_mask = 0;
static uint8_t generation = 0;
static uint64_t zobrist_holes[RING][256];
static uint64_t zobrist_kazans[2][256];
static uint64_t zobrist_tuzdyk[2][RING + 1];
static uint64_t zobrist_turn;

static int64_t weights[NFEATURES];
static int use_quiescence = 1, use_ordering = 1, use_table = 1;
static int killers[PLY_CAP + 2][2];
static int64_t history[RING];
static int pv[PLY_CAP + 2][PLY_CAP + 2];
static int pv_length[PLY_CAP + 2];

static long long nodes = 0;
static long long next_check = 0;
static long long node_limit = -1;
static long long check_every = 512;
static PyObject *clock_fn = NULL, *stop_fn = NULL;
static int has_deadline = 0;
static double deadline = 0.0;
static int aborted = 0; /* 1: a limit or the stop flag; 2: a Python error in a callback */

static uint64_t splitmix(uint64_t *x) {
    uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static void init_zobrist(void) {
    uint64_t seed = 20240601ULL;
    for (int i = 0; i < RING; i++)
        for (int n = 0; n < 256; n++) zobrist_holes[i][n] = splitmix(&seed);
    for (int p = 0; p < 2; p++)
        for (int n = 0; n < 256; n++) zobrist_kazans[p][n] = splitmix(&seed);
    for (int p = 0; p < 2; p++)
        for (int t = 0; t <= RING; t++) zobrist_tuzdyk[p][t] = splitmix(&seed);
    zobrist_turn = splitmix(&seed);
}

/* The Zobrist key of a state, computed whole (23 look-ups): cheaper here than keeping it up to date. */
static uint64_t key_of(const int *s) {
    uint64_t key = 0;
    for (int i = 0; i < RING; i++) key ^= zobrist_holes[i][s[i] & 255];
    key ^= zobrist_kazans[0][s[18] & 255] ^ zobrist_kazans[1][s[19] & 255];
    key ^= zobrist_tuzdyk[0][s[20] + 1] ^ zobrist_tuzdyk[1][s[21] + 1];
    if (s[22]) key ^= zobrist_turn;
    return key;
}

static int last_table[RING][163];
static int gain_table[RING][163];

static void init_tables(void) {
    for (int origin = 0; origin < RING; origin++)
        for (int n = 0; n <= 162; n++) {
            int last = n == 1 ? (origin + 1) % RING : (origin + n - 1 + RING) % RING;
            last_table[origin][n] = last;
            if (n <= 1) gain_table[origin][n] = n;
            else { /* kumalaks of the move that land in its last hole */
                int offset = (last - origin + RING) % RING;
                gain_table[origin][n] = n / RING + (offset < n % RING);
            }
        }
}

static inline int last_of(int origin, int n) { return last_table[origin][n]; }
static inline int gain_of(int origin, int n) { return gain_table[origin][n]; }

static void make(const int *s, int *c, int origin) {
    memcpy(c, s, sizeof(int) * NFIELDS);
    int n = c[origin];
    c[origin] = 0;
    if (n == 1) {
        c[origin != 17 ? origin + 1 : 0] += 1;
    } else {
        int laps = n / RING, rest = n % RING;
        if (laps)
            for (int i = 0; i < RING; i++) c[i] += laps;
        for (int j = 0, i = origin; j < rest; j++) {
            c[i] += 1;
            if (++i == RING) i = 0;
        }
    }
    int t = c[20];
    if (t >= 0 && c[t]) { c[18] += c[t]; c[t] = 0; }
    t = c[21];
    if (t >= 0 && c[t]) { c[19] += c[t]; c[t] = 0; }
    int me = c[22];
    c[22] = 1 - me;
    int last = last_of(origin, n);
    if ((last >= HOLES) != me) {
        int count = c[last];
        if (count && !(count & 1)) {
            c[last] = 0;
            c[18 + me] += count;
        } else if (count == 3 && s[20 + me] < 0 && last != 8 && last != 17 &&
                   (s[21 - me] < 0 || s[21 - me] % HOLES != last % HOLES)) {
            c[last] = 0;
            c[18 + me] += 3;
            c[20 + me] = last;
        }
    }
}

/* What the side to move's move from origin takes at once: an even count, 3 for a new tuzdyk, else 0. */
static int capture(const int *s, int origin) {
    int n = s[origin];
    int last = last_of(origin, n);
    int me = s[22];
    if ((last >= HOLES) == me || last == s[20] || last == s[21]) return 0;
    int count = s[last] + gain_of(origin, n);
    if (!(count & 1)) return count;
    if (count == 3 && s[20 + me] < 0 && last != 8 && last != 17) {
        int other = s[21 - me];
        if (other < 0 || other % HOLES != last % HOLES) return 3;
    }
    return 0;
}

static int best_capture(const int *s, int me) {
    int best = 0;
    int t_me = s[20 + me], t_op = s[21 - me];
    int start = me * HOLES;
    for (int origin = start; origin < start + HOLES; origin++) {
        int n = s[origin];
        if (!n) continue;
        int last = last_of(origin, n);
        if ((last >= HOLES) == me || last == t_op || last == t_me) continue;
        int count = s[last] + gain_of(origin, n);
        if (count & 1) {
            if (count == 3 && t_me < 0 && last != 8 && last != 17 && (t_op < 0 || t_op % HOLES != last % HOLES) &&
                best < 3)
                best = 3;
        } else if (count > best) {
            best = count;
        }
    }
    return best;
}

static inline int64_t floor_div(int64_t a, int64_t b) {
    int64_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) q--;
    return q;
}

static int evaluate(const int *s) {
    int me = s[22], op = 1 - me;
    int row_me = 0, row_op = 0, empty_me = 0, empty_op = 0;
    for (int i = 0; i < HOLES; i++) {
        int a = s[me * HOLES + i], b = s[op * HOLES + i];
        row_me += a;
        row_op += b;
        empty_me += a == 0;
        empty_op += b == 0;
    }
    int k_me = s[18 + me], k_op = s[18 + op];
    int danger = (row_me < ATSYZ_MARGIN ? ATSYZ_MARGIN - row_me : 0) - (row_op < ATSYZ_MARGIN ? ATSYZ_MARGIN - row_op : 0);
    int64_t rest = weights[1] * ((s[20 + me] >= 0) - (s[20 + op] >= 0)) + weights[2] * (empty_op - empty_me) +
                   weights[3] * best_capture(s, me) + weights[4] * best_capture(s, op) + weights[5] * (row_me - row_op) +
                   weights[6] * danger;
    return (int)(floor_div(weights[0] * (int64_t)(k_me - k_op) * (int64_t)(k_me + k_op), SCALE) + rest);
}

/* 1 and *score set when the position is finished or decided (rules §5; see search._certain). */
static int certain(const int *s, int ply, int *score) {
    int me = s[22];
    int k_me = s[18 + me], k_op = s[19 - me];
    if (k_me >= WINNING) { *score = WIN - ply; return 1; }
    if (k_op >= WINNING) { *score = ply - WIN; return 1; }
    int start = me * HOLES, any = 0;
    for (int i = start; i < start + HOLES; i++) any |= s[i];
    if (!any) {
        if (k_me == 81) *score = 0;
        else *score = k_me > 81 ? WIN - ply : ply - WIN;
        return 1;
    }
    int board = 162 - k_me - k_op;
    if (k_op + board < 81) { *score = WIN - ply; return 1; }
    if (k_me + board < 81) { *score = ply - WIN; return 1; }
    return 0;
}

static int moves_of(const int *s, int *out) {
    int me = s[22], count = 0;
    for (int i = me * HOLES; i < me * HOLES + HOLES; i++)
        if (s[i]) out[count++] = i;
    return count;
}

static int to_table(int score, int ply) {
    if (score > WIN_BOUND) return score + ply;
    if (score < -WIN_BOUND) return score - ply;
    return score;
}

static int from_table(int score, int ply) {
    if (score > WIN_BOUND) return score - ply;
    if (score < -WIN_BOUND) return score + ply;
    return score;
}

static void check(void) {
    next_check = nodes + check_every;
    if (node_limit >= 0) {
        if (nodes >= node_limit) { aborted = 1; return; }
        if (next_check > node_limit) next_check = node_limit;
    }
    if (has_deadline) {
        PyObject *now = PyObject_CallNoArgs(clock_fn);
        if (now == NULL) { aborted = 2; return; }
        double t = PyFloat_AsDouble(now);
        Py_DECREF(now);
        if (t == -1.0 && PyErr_Occurred()) { aborted = 2; return; }
        if (t >= deadline) { aborted = 1; return; }
    }
    if (stop_fn != Py_None) {
        PyObject *flag = PyObject_CallNoArgs(stop_fn);
        if (flag == NULL) { aborted = 2; return; }
        int truth = PyObject_IsTrue(flag);
        Py_DECREF(flag);
        if (truth < 0) { aborted = 2; return; }
        if (truth) aborted = 1;
    }
}

/* Moves in search order: table move, captures by size, killers, history; ties by origin, higher first. */
static int ordered(const int *s, int ply, int table_move, int *out) {
    int moves[HOLES];
    int count = moves_of(s, moves);
    if (!use_ordering) {
        memcpy(out, moves, sizeof(int) * count);
        return count;
    }
    int64_t ranks[HOLES];
    for (int i = 0; i < count; i++) {
        int origin = moves[i];
        int64_t rank;
        if (origin == table_move) rank = (int64_t)1 << 40;
        else {
            int gain = capture(s, origin);
            if (gain) rank = ((int64_t)1 << 30) + ((int64_t)gain << 20);
            else if (origin == killers[ply][0]) rank = (int64_t)1 << 29;
            else if (origin == killers[ply][1]) rank = (int64_t)1 << 28;
            else rank = history[origin];
        }
        ranks[i] = rank;
    }
    for (int i = 0; i < count; i++) { /* selection by (rank, origin) descending */
        int best = i;
        for (int j = i + 1; j < count; j++)
            if (ranks[j] > ranks[best] || (ranks[j] == ranks[best] && moves[j] > moves[best])) best = j;
        int64_t r = ranks[i]; ranks[i] = ranks[best]; ranks[best] = r;
        int m = moves[i]; moves[i] = moves[best]; moves[best] = m;
        out[i] = moves[i];
    }
    return count;
}

static int quiesce(const int *s, int alpha, int beta, int ply, int left) {
    nodes++;
    if (nodes >= next_check) check();
    if (aborted) return 0;
    int stand = evaluate(s);
    if (stand >= beta || left <= 0) return stand;
    if (stand > alpha) alpha = stand;
    int moves[HOLES], gains[HOLES], count = 0;
    int all[HOLES];
    int n = moves_of(s, all);
    for (int i = 0; i < n; i++) {
        int gain = capture(s, all[i]);
        if (gain) { moves[count] = all[i]; gains[count] = gain; count++; }
    }
    if (!count) return stand;
    for (int i = 0; i < count; i++) { /* (gain, origin) descending */
        int best = i;
        for (int j = i + 1; j < count; j++)
            if (gains[j] > gains[best] || (gains[j] == gains[best] && moves[j] > moves[best])) best = j;
        int g = gains[i]; gains[i] = gains[best]; gains[best] = g;
        int m = moves[i]; moves[i] = moves[best]; moves[best] = m;
    }
    int best = stand;
    int child[NFIELDS];
    for (int i = 0; i < count; i++) {
        make(s, child, moves[i]);
        int score, fixed;
        if (certain(child, ply + 1, &fixed)) score = -fixed;
        else score = -quiesce(child, -beta, -alpha, ply + 1, left - 1);
        if (aborted) return 0;
        if (score > best) {
            best = score;
            if (score > alpha) {
                alpha = score;
                if (score >= beta) break;
            }
        }
    }
    return best;
}

static int negamax(const int *s, int depth, int alpha, int beta, int ply) {
    nodes++;
    if (nodes >= next_check) check();
    if (aborted) return 0;
    pv_length[ply] = 0;
    int fixed;
    if (certain(s, ply, &fixed)) return fixed;
    if (depth <= 0) return use_quiescence ? quiesce(s, alpha, beta, ply, QUIESCENCE_PLIES) : evaluate(s);
    int alpha_start = alpha;
    int table_move = -1;
    uint64_t key = 0;
    Entry *entry = NULL;
    if (use_table) {
        key = key_of(s);
        entry = &table[key & table_mask];
        if (entry->key == key && entry->generation == generation && entry->depth > 0) {
            table_move = entry->move;
            if (entry->depth >= depth) {
                int score = from_table(entry->score, ply);
                int flag = entry->flag;
                if (flag == EXACT || (flag == LOWER && score >= beta) || (flag == UPPER && score <= alpha)) {
                    if (table_move >= 0) { pv[ply][0] = table_move; pv_length[ply] = 1; }
                    return score;
                }
            }
        }
    }
    int moves[HOLES];
    int count = ordered(s, ply, table_move, moves);
    int best_score = -INF, best_move = -1;
    int child[NFIELDS];
    for (int i = 0; i < count; i++) {
        int origin = moves[i];
        make(s, child, origin);
        int score;
        if (i == 0) {
            score = -negamax(child, depth - 1, -beta, -alpha, ply + 1);
        } else {
            score = -negamax(child, depth - 1, -alpha - 1, -alpha, ply + 1);
            if (!aborted && alpha < score && score < beta) score = -negamax(child, depth - 1, -beta, -alpha, ply + 1);
        }
        if (aborted) return 0;
        if (score > best_score) {
            best_score = score;
            best_move = origin;
            if (score > alpha) {
                alpha = score;
                pv[ply][0] = origin;
                memcpy(&pv[ply][1], pv[ply + 1], sizeof(int) * pv_length[ply + 1]);
                pv_length[ply] = pv_length[ply + 1] + 1;
                if (score >= beta) {
                    if (capture(s, origin) == 0) {
                        if (killers[ply][0] != origin) {
                            killers[ply][1] = killers[ply][0];
                            killers[ply][0] = origin;
                        }
                        history[origin] += (int64_t)depth * depth;
                    }
                    break;
                }
            }
        }
    }
    if (use_table) {
        int flag = best_score >= beta ? LOWER : (best_score > alpha_start ? EXACT : UPPER);
        entry->key = key;
        entry->score = to_table(best_score, ply);
        entry->generation = generation;
        entry->depth = (int8_t)depth;
        entry->flag = (int8_t)flag;
        entry->move = (int8_t)best_move;
    }
    return best_score;
}

static int read_state(PyObject *seq, int *s) {
    PyObject *fast = PySequence_Fast(seq, "the state must be a sequence of 23 ints");
    if (fast == NULL) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != NFIELDS) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "the state must hold 23 ints");
        return -1;
    }
    for (int i = 0; i < NFIELDS; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1 && PyErr_Occurred()) { Py_DECREF(fast); return -1; }
        s[i] = (int)v;
    }
    Py_DECREF(fast);
    for (int i = 0; i < RING; i++)
        if (s[i] < 0 || s[i] > 162) { PyErr_SetString(PyExc_ValueError, "a hole holds 0-162"); return -1; }
    if (s[18] < 0 || s[18] > 162 || s[19] < 0 || s[19] > 162 || s[20] < -1 || s[20] >= RING || s[21] < -1 ||
        s[21] >= RING || (s[22] != 0 && s[22] != 1)) {
        PyErr_SetString(PyExc_ValueError, "a kazan, tuzdyk or side field is out of range");
        return -1;
    }
    return 0;
}

static PyObject *state_list(const int *s) {
    PyObject *list = PyList_New(NFIELDS);
    if (list == NULL) return NULL;
    for (int i = 0; i < NFIELDS; i++) PyList_SET_ITEM(list, i, PyLong_FromLong(s[i]));
    return list;
}

/* reset(weights, quiescence, ordering, table, table_bits): start a search. */
static PyObject *py_reset(PyObject *self, PyObject *args) {
    PyObject *weight_seq;
    int bits;
    if (!PyArg_ParseTuple(args, "Opppi", &weight_seq, &use_quiescence, &use_ordering, &use_table, &bits)) return NULL;
    PyObject *fast = PySequence_Fast(weight_seq, "weights must be a sequence");
    if (fast == NULL) return NULL;
    if (PySequence_Fast_GET_SIZE(fast) != NFEATURES) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "7 weights expected");
        return NULL;
    }
    for (int i = 0; i < NFEATURES; i++) {
        weights[i] = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(fast, i));
        if (weights[i] == -1 && PyErr_Occurred()) { Py_DECREF(fast); return NULL; }
    }
    Py_DECREF(fast);
    if (bits < 10 || bits > 26) { PyErr_SetString(PyExc_ValueError, "table_bits must be 10-26"); return NULL; }
    uint64_t size = (uint64_t)1 << bits;
    if (table == NULL || table_mask + 1 != size) {
        PyMem_Free(table);
        table = PyMem_Calloc(size, sizeof(Entry));
        if (table == NULL) return PyErr_NoMemory();
        table_mask = size - 1;
        generation = 1;
    } else if (++generation == 0) { /* wrapped: entries of 256 searches ago would look current */
        memset(table, 0, size * sizeof(Entry));
        generation = 1;
    }
    for (int i = 0; i < PLY_CAP + 2; i++) killers[i][0] = killers[i][1] = -1;
    memset(history, 0, sizeof(history));
    nodes = 0;
    Py_RETURN_NONE;
}

/* root(state, order, depth, alpha, beta, spread, clock, deadline|None, stop|None, node_limit|None, check_every)
 * -> (best_score, new_order, exact, pv, nodes), or None when a limit or the stop flag cut the depth short. */
static PyObject *py_root(PyObject *self, PyObject *args) {
    PyObject *state_obj, *order_obj, *deadline_obj, *limit_obj;
    int depth, alpha, beta, spread;
    PyObject *clock_obj, *stop_obj;
    long long every;
    if (!PyArg_ParseTuple(args, "OOiiiiOOOOL", &state_obj, &order_obj, &depth, &alpha, &beta, &spread, &clock_obj,
                          &deadline_obj, &stop_obj, &limit_obj, &every))
        return NULL;
    if (table == NULL) { PyErr_SetString(PyExc_RuntimeError, "reset() first"); return NULL; }
    if (depth < 1 || depth > 64) { PyErr_SetString(PyExc_ValueError, "depth must be 1-64"); return NULL; }
    int s[NFIELDS];
    if (read_state(state_obj, s) < 0) return NULL;
    int order[HOLES], count = 0;
    PyObject *fast = PySequence_Fast(order_obj, "order must be a sequence");
    if (fast == NULL) return NULL;
    Py_ssize_t given = PySequence_Fast_GET_SIZE(fast);
    if (given < 1 || given > HOLES) { Py_DECREF(fast); PyErr_SetString(PyExc_ValueError, "1-9 root moves"); return NULL; }
    for (Py_ssize_t i = 0; i < given; i++) {
        long origin = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (origin == -1 && PyErr_Occurred()) { Py_DECREF(fast); return NULL; }
        if (origin < s[22] * HOLES || origin >= s[22] * HOLES + HOLES || !s[origin]) {
            Py_DECREF(fast);
            PyErr_SetString(PyExc_ValueError, "a root move is not a non-empty hole of the side to move");
            return NULL;
        }
        order[count++] = (int)origin;
    }
    Py_DECREF(fast);
    clock_fn = clock_obj;
    stop_fn = stop_obj;
    has_deadline = deadline_obj != Py_None;
    if (has_deadline) {
        deadline = PyFloat_AsDouble(deadline_obj);
        if (deadline == -1.0 && PyErr_Occurred()) return NULL;
    }
    if (limit_obj == Py_None) node_limit = -1;
    else {
        node_limit = PyLong_AsLongLong(limit_obj);
        if (node_limit == -1 && PyErr_Occurred()) return NULL;
    }
    check_every = every > 0 ? every : 512;
    next_check = nodes + check_every;
    if (node_limit >= 0 && next_check > node_limit) next_check = node_limit;
    aborted = 0;

    int best_score = -INF;
    int scored_origin[HOLES], scored_score[HOLES], scored_exact[HOLES], scored = 0;
    int root_pv[PLY_CAP + 2], root_pv_length = 0;
    int child[NFIELDS];
    for (int i = 0; i < count; i++) {
        int origin = order[i];
        make(s, child, origin);
        int score, is_exact;
        if (i == 0) {
            score = -negamax(child, depth - 1, -beta, -alpha, 1);
            is_exact = alpha < score && score < beta;
        } else {
            int floor_ = best_score - spread > alpha ? best_score - spread : alpha;
            score = -negamax(child, depth - 1, -floor_ - 1, -floor_, 1);
            is_exact = 0;
            if (!aborted && floor_ < score && score < beta) {
                score = -negamax(child, depth - 1, -beta, -floor_, 1);
                is_exact = floor_ < score && score < beta;
            }
        }
        if (aborted) break;
        scored_origin[scored] = origin;
        scored_score[scored] = score;
        scored_exact[scored] = is_exact;
        scored++;
        if (score > best_score) {
            best_score = score;
            root_pv[0] = origin;
            memcpy(&root_pv[1], pv[1], sizeof(int) * pv_length[1]);
            root_pv_length = pv_length[1] + 1;
            if (score >= beta) break;
        }
    }
    clock_fn = stop_fn = NULL;
    if (aborted == 2) return NULL;
    if (aborted) Py_RETURN_NONE;
    /* ranked: searched moves by score, stable; then the unsearched ones in their old order */
    int rank[HOLES];
    for (int i = 0; i < scored; i++) rank[i] = i;
    for (int i = 1; i < scored; i++) {
        int r = rank[i], j = i - 1;
        while (j >= 0 && scored_score[rank[j]] < scored_score[r]) { rank[j + 1] = rank[j]; j--; }
        rank[j + 1] = r;
    }
    PyObject *new_order = PyList_New(0), *exact = PyList_New(0), *line = PyList_New(0);
    if (new_order == NULL || exact == NULL || line == NULL) goto fail;
    for (int i = 0; i < scored; i++) {
        int k = rank[i];
        PyObject *o = PyLong_FromLong(scored_origin[k]);
        if (o == NULL || PyList_Append(new_order, o) < 0) { Py_XDECREF(o); goto fail; }
        Py_DECREF(o);
        if (scored_exact[k] && scored_score[k] >= best_score - spread) {
            PyObject *pair = Py_BuildValue("(ii)", scored_origin[k], scored_score[k]);
            if (pair == NULL || PyList_Append(exact, pair) < 0) { Py_XDECREF(pair); goto fail; }
            Py_DECREF(pair);
        }
    }
    for (int i = 0; i < count; i++) {
        int seen = 0;
        for (int j = 0; j < scored; j++) seen |= scored_origin[j] == order[i];
        if (!seen) {
            PyObject *o = PyLong_FromLong(order[i]);
            if (o == NULL || PyList_Append(new_order, o) < 0) { Py_XDECREF(o); goto fail; }
            Py_DECREF(o);
        }
    }
    for (int i = 0; i < root_pv_length; i++) {
        PyObject *o = PyLong_FromLong(root_pv[i]);
        if (o == NULL || PyList_Append(line, o) < 0) { Py_XDECREF(o); goto fail; }
        Py_DECREF(o);
    }
    return Py_BuildValue("(iNNNL)", best_score, new_order, exact, line, nodes);
fail:
    Py_XDECREF(new_order);
    Py_XDECREF(exact);
    Py_XDECREF(line);
    return NULL;
}

static PyObject *py_nodes(PyObject *self, PyObject *args) { return PyLong_FromLongLong(nodes); }

/* For the tests: the C versions of board.make, search._capture and evaluation.evaluate. */
static PyObject *py_make(PyObject *self, PyObject *args) {
    PyObject *state_obj;
    int origin;
    if (!PyArg_ParseTuple(args, "Oi", &state_obj, &origin)) return NULL;
    int s[NFIELDS], c[NFIELDS];
    if (read_state(state_obj, s) < 0) return NULL;
    if (origin < s[22] * HOLES || origin >= s[22] * HOLES + HOLES || !s[origin]) {
        PyErr_SetString(PyExc_ValueError, "not a non-empty hole of the side to move");
        return NULL;
    }
    make(s, c, origin);
    return state_list(c);
}

static PyObject *py_capture(PyObject *self, PyObject *args) {
    PyObject *state_obj;
    int origin;
    if (!PyArg_ParseTuple(args, "Oi", &state_obj, &origin)) return NULL;
    int s[NFIELDS];
    if (read_state(state_obj, s) < 0) return NULL;
    if (origin < 0 || origin >= RING || !s[origin]) {
        PyErr_SetString(PyExc_ValueError, "not a non-empty hole");
        return NULL;
    }
    return PyLong_FromLong(capture(s, origin));
}

static PyObject *py_evaluate(PyObject *self, PyObject *args) {
    PyObject *state_obj;
    if (!PyArg_ParseTuple(args, "O", &state_obj)) return NULL;
    int s[NFIELDS];
    if (read_state(state_obj, s) < 0) return NULL;
    return PyLong_FromLong(evaluate(s));
}

static PyMethodDef methods[] = {
    {"reset", py_reset, METH_VARARGS, "reset(weights, quiescence, ordering, table, table_bits): start a search."},
    {"root", py_root, METH_VARARGS, "Search one depth from the root; None when cut short."},
    {"nodes", py_nodes, METH_NOARGS, "Nodes searched since reset()."},
    {"make", py_make, METH_VARARGS, "make(state, origin) -> the child state (as board.make)."},
    {"capture", py_capture, METH_VARARGS, "capture(state, origin) -> what the move takes at once."},
    {"evaluate", py_evaluate, METH_VARARGS, "evaluate(state) with the weights of the last reset()."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_native", "The engine's search in C.", -1, methods};

PyMODINIT_FUNC PyInit__native(void) {
    init_zobrist();
    init_tables();
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    if (PyModule_AddIntConstant(m, "API_VERSION", API_VERSION) < 0) { Py_DECREF(m); return NULL; }
    return m;
}
