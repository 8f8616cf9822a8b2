/* Holds a file open the way Word and Excel do, sharing it for reading only (no writing, no
 * deleting or renaming), until its standard input closes: the Windows flow test
 * (tests/windows/flow.py) uses it to meet a document that another program has open.
 *
 *   holdopen.exe FILE     prints "held" once the file is open */
#include <stdio.h>
#include <windows.h>

int wmain(int argc, wchar_t **argv)
{
    if (argc != 2) {
        fputs("usage: holdopen.exe FILE\n", stderr);
        return 2;
    }
    HANDLE file = CreateFileW(argv[1], GENERIC_READ, FILE_SHARE_READ, NULL, OPEN_EXISTING,
                              FILE_ATTRIBUTE_NORMAL, NULL);
    if (file == INVALID_HANDLE_VALUE) {
        fprintf(stderr, "holdopen: cannot open the file (error %lu)\n", GetLastError());
        return 1;
    }
    puts("held");
    fflush(stdout);
    while (getchar() != EOF) {
    }
    CloseHandle(file);
    return 0;
}
