// diamond: the desktop workbench. Thin entry point; the window lives in diamond_ui.
#include "ui/application.h"

int main(int argc, char **argv) { return diamond::ui::runApplication(argc, argv); }
