pragma circom 2.0.0;

// Shape (g): wires no constraint uses: a private input that appears nowhere, a signal assigned with
// <-- and never constrained, and a linear intermediate. Compiled twice: unused_O0 keeps them all
// (7 wires, the linear constraint too); unused_O2 removes the intermediate, the dangling signal
// and the unused input (4 wires, while the .r1cs header still counts 3 private inputs).
template Unused() {
    signal input a;
    signal input b;
    signal input ignored;
    signal output out;
    signal dangling;
    signal lin;
    dangling <-- a + 5;
    lin <== a + b;
    out <== lin * b;
}

component main = Unused();
