# install.cmake — `cmake --install BUILD [--prefix P]` (docs/install.md): the proofmill command,
# its documentation and example configuration, a configuration file (written only when none is
# there: an existing one is kept) and the systemd unit (packaging/systemd/proofmill.service.in).
# Paths of the unit and the config are computed at install time, so --prefix and DESTDIR work:
#   P/bin/proofmill
#   P/share/doc/proofmill/{README.md,install.md,engine.md,filecoin.md,daemon.md,curio.md,metrics.md,devices.md,
#                          proofmill.conf.example}
#   P/share/proofmill/filecoin/ (Filecoin's published records, parameters.json, a WindowPoSt)
#   /etc/proofmill/proofmill.conf for P = /usr, else P/etc/proofmill/proofmill.conf
#   P/lib/systemd/system/proofmill.service
include(GNUInstallDirs)
install(TARGETS proofmill RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES README.md docs/install.md docs/engine.md docs/filecoin.md docs/daemon.md docs/curio.md docs/metrics.md
              docs/devices.md proofmill.conf.example
        DESTINATION ${CMAKE_INSTALL_DOCDIR})
# Filecoin's published data that `proofmill selfcheck` checks against (tests/data/filecoin/README.md):
# P/share/proofmill/filecoin, found from the installed binary as ../share/proofmill/filecoin
install(FILES tests/data/filecoin/README.md tests/data/filecoin/parameters.json
        tests/data/filecoin/seal_regression_records-v16.json tests/data/filecoin/seal_regression_records-v18.json
        tests/data/filecoin/window_post_calibnet_32GiB.json
        DESTINATION ${CMAKE_INSTALL_DATADIR}/proofmill/filecoin)
install(CODE "set(PM_SOURCE_DIR \"${CMAKE_SOURCE_DIR}\")
set(PM_BINARY_DIR \"${CMAKE_BINARY_DIR}\")
set(PM_BINDIR \"${CMAKE_INSTALL_BINDIR}\")
set(PM_DOCDIR \"${CMAKE_INSTALL_DOCDIR}\")")
install(SCRIPT cmake/install_files.cmake)
