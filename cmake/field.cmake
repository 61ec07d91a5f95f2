# Field layer (src/field, issue #2): the generated x86-64 BMI2+ADX Montgomery kernels go into the
# asm build only; proofmill_core_portable never sees them (src/field/cpu_x86.h is the switch point).
if(PROOFMILL_ASM)
  enable_language(ASM)
  target_sources(proofmill_core PRIVATE ${CMAKE_SOURCE_DIR}/src/field/mont_x86_64.S)
endif()
