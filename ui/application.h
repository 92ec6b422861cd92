// Start-up of the desktop application: command line, translations, main window.
#pragma once

namespace diamond::ui {

/// Handles --help/--version without needing a display, then runs the GUI event loop.
int runApplication(int argc, char **argv);

} // namespace diamond::ui
