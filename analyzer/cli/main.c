#include "analyzer/cli/commands.h"

int main(int argc, char **argv)
{
    return hms_main(argc, argv);
}
