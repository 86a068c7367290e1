/* bcryptprimitives.dll for Wine 8, which lacks it: ProcessPrng, imported by
 * every program built by Rust 1.78 or later, over RtlGenRandom
 * (advapi32!SystemFunction036). Built and installed into the test prefix by
 * scripts/test-windows.sh; never shipped. Wine 9 and Windows have their own. */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length)
{
    while (length > 0) {
        ULONG chunk = length > 0x40000000 ? 0x40000000 : (ULONG)length;
        if (!SystemFunction036(data, chunk))
            return FALSE;
        data += chunk;
        length -= chunk;
    }
    return TRUE;
}
