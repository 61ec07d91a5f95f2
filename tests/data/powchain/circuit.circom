pragma circom 2.0.0;

// A small circuit with two public inputs and a few hundred constraints: x_{i+1} = x_i^2 + k*x_i + i,
// plus a running product of selected bits, so the proof exercises non-trivial a, b, c and H.
template PowChain(n) {
    signal input x0;
    signal input k;
    signal input secret;
    signal output out;
    signal x[n + 1];
    signal kx[n];
    signal bits[64];
    signal acc[65];
    signal bx[64];
    x[0] <== x0 + secret;
    for (var i = 0; i < n; i++) {
        kx[i] <== k * x[i];
        x[i + 1] <== x[i] * x[i] + kx[i] + i;
    }
    var lc = 0;
    var e2 = 1;
    for (var i = 0; i < 64; i++) {
        bits[i] <-- (secret >> i) & 1;
        bits[i] * (bits[i] - 1) === 0;
        lc += bits[i] * e2;
        e2 = e2 + e2;
    }
    lc === secret;
    acc[0] <== 1;
    for (var i = 0; i < 64; i++) {
        bx[i] <== bits[i] * x[i + 1];
        acc[i + 1] <== acc[i] * (1 + bx[i]);
    }
    out <== acc[64] + x[n];
}

component main {public [x0, k]} = PowChain(150);
