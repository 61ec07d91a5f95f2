pragma circom 2.0.0;

// Shape (h): the smallest QAP domain, 2^1: one constraint and no public signals
// (nConstraints + nPublic + 1 = 2).
template Tiny() {
    signal input a;
    signal input b;
    signal input c;
    a * b === c;
}

component main = Tiny();
