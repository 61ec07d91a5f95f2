pragma circom 2.0.0;

// Shape (d), compiled with --O0 so circom keeps its linear constraints: constraints whose A and B
// are empty (out1 = 5 in + 3, t = 3 (a - b), k = 63), A and B with constant terms
// ((a + 7) (b - 1)), coefficients -1 and -2 (r - 1, r - 2 in the .r1cs) and a large constant
// coefficient ((r - 1) / 2 = -1/2).
template Linear() {
    signal input in;
    signal input a;
    signal input b;
    signal output out1;
    signal output out2;
    signal output out3;
    signal output out4;
    signal t;
    signal k;
    out1 <== in * 5 + 3;
    out2 <== (a + 7) * (b - 1);
    out3 <== -1 * a + -2 * b + 52435875175126190479447740508185965837690552500527637822603658699938581184512;
    t <== (a - b) * 3;
    k <== 63;
    out4 <== (t * 26217937587563095239723870254092982918845276250263818911301829349969290592256) * (1 - in) + k;
    t * (k - 62) === 3 * a - 3 * b;
}

component main {public [in]} = Linear();
