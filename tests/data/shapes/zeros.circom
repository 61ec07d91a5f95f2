pragma circom 2.0.0;

// Shape (e), zeros: every input 0, so every wire of the witness but wire 0 (the constant 1) is 0.
template Zeros(n) {
    signal input x;
    signal input y;
    signal output out;
    signal z[n];
    z[0] <== x * y;
    for (var i = 1; i < n; i++) {
        z[i] <== z[i - 1] * x + y;
    }
    out <== z[n - 1] * y;
}

component main {public [x]} = Zeros(6);
