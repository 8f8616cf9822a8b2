/* For tests under Wine only, never shipped (scripts/windows.sh, ADR 33).
 *
 * Rust's standard library takes its random bytes from ProcessPrng in bcryptprimitives.dll,
 * which Windows 10 and 11 have and Wine 8 lacks. This stands in for it in the project's Wine
 * prefix, with the same contract (fill the buffer, always succeed), through RtlGenRandom
 * (SystemFunction036 in advapi32), which Wine implements. */
#include <windows.h>
#include <ntsecapi.h>

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len)
{
    while (len > 0) {
        ULONG chunk = len > 0x10000000 ? 0x10000000 : (ULONG)len;
        if (!RtlGenRandom(data, chunk))
            return FALSE;
        data += chunk;
        len -= chunk;
    }
    return TRUE;
}
