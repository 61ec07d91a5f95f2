pragma circom 2.0.0;

// Shape (c), QAP domain boundary: n + 1 = 28 constraints and nPublic = 2 (public input k,
// output out), so nConstraints + nPublic + 1 = 31 and the domain has 32 points
// (bound_lo / bound_eq / bound_hi: one below, exactly at and one above 2^5).
template Chain(n) {
    signal input x;
    signal input k;
    signal output out;
    signal y[n];
    y[0] <== x * k;
    for (var i = 1; i < n; i++) {
        y[i] <== y[i - 1] * x + i;
    }
    out <== y[n - 1] * x;
}

component main {public [k]} = Chain(27);
