pragma circom 2.0.0;

// Shape (e), extreme values: inputs m = r - 1 (-1 mod r) and z = 0, public; wires holding r - 1,
// r - 2, 1 and 0.
template Extremes() {
    signal input m;
    signal input z;
    signal input n;
    signal output sq;
    signal output back;
    signal output m2;
    signal p;
    signal q;
    sq <== m * m;
    p <== z * m;
    back <== p * z + m;
    q <== n * m;
    m2 <== q + m;
    m2 * sq === m2;
}

component main {public [m, z]} = Extremes();
