// diamond-train: thin entry point; all logic lives in diamond_engine.
#include "engine_cli.h"

int main(int argc, char **argv) { return diamond::engine::runCli(argc, argv); }
