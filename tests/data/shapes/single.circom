pragma circom 2.0.0;

// Shape (f): one constraint, one public output, one private input (domain 2^2).
template Single() {
    signal input x;
    signal output y;
    y <== x * x;
}

component main = Single();
