# Field layer (src/field, issue #2): the generated x86-64 BMI2+ADX Montgomery kernels go into the
# asm build only; proofmill_core_portable never sees them (src/field/cpu_x86.h is the switch point).
if(PROOFMILL_ASM)
  enable_language(ASM)
  target_sources(proofmill_core PRIVATE ${CMAKE_SOURCE_DIR}/src/field/mont_x86_64.S)
endif()
# GCC's vectoriser turns the limb-select loops of mont_impl.h into 128-bit loads of limbs just
# stored as 64-bit words: a store-forwarding stall (~15 cycles) per add/sub. Scalar code is faster.
set_source_files_properties(${CMAKE_SOURCE_DIR}/src/field/fp.c ${CMAKE_SOURCE_DIR}/src/field/fr.c
  PROPERTIES COMPILE_OPTIONS "-fno-tree-vectorize")
