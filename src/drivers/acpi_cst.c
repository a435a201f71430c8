// SPDX-License-Identifier: GPL-2.0-only
/*
 * ACPI _CST evaluation shared by acpi_idle and intel_idle
 * (src/drivers/acpi_cst.h).
 *
 * Follows, read in the torvalds/linux tree:
 *  - drivers/acpi/acpi_processor.c at 03c11eb3b16d: _CST parsing
 *    (acpi_processor_evaluate_cst) and acpi_processor_claim_cst_control;
 *  - arch/x86/kernel/acpi/cstate.c (v6.18 text, blob 11293143 in the index):
 *    the FFH probe (acpi_processor_ffh_cstate_probe_cpu).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "acpi_cst.h"

bool il_acpi_claim_cst_control(const struct il_platform *p)
{
	return il_option_bool(p, "firmware.cst_claim", p->cst_claim_ok);
}

/*
 * The x86 FFH probe: the vendor must be one whose MWAIT hints the kernel
 * keeps per CPU (Intel, AMD, Hygon), CPUID leaf 5 must list at least one
 * sub-state for the hint's C-state and advertise the ECX extensions with
 * interrupt break. why gets the reason on failure.
 */
static bool ffh_probe(const struct il_platform *p, unsigned int hint, char *why, size_t n)
{
	unsigned int cstate_type, substates;

	if (p->vendor != IL_VENDOR_INTEL && p->vendor != IL_VENDOR_AMD &&
	    p->vendor != IL_VENDOR_HYGON) {
		snprintf(why, n, "no MWAIT C-state support for %s CPUs", il_vendor_name(p->vendor));
		return false;
	}
	if (!p->mwait) {
		snprintf(why, n, "no MWAIT (no CPUID leaf 5)");
		return false;
	}
	cstate_type = (il_mwait_cstate(hint) + 1) & IL_MWAIT_CSTATE_MASK;
	/*
	 * A hint nibble of 8..15 makes the kernel shift a 32-bit EDX by 32..60
	 * bits; x86 SHR uses the count modulo 32, so do the same here rather
	 * than invoke undefined behaviour.
	 */
	unsigned int shift = (cstate_type * IL_MWAIT_SUBSTATE_SIZE) & 31;
	substates = (p->cpuid5_edx >> shift) & IL_MWAIT_SUBSTATE_MASK;
	if (!substates) {
		snprintf(why, n, "FW BUG: ACPI MWAIT C-state 0x%x not supported by HW (0x%x)",
			 hint, p->cpuid5_edx >> shift);
		return false;
	}
	if (!(p->cpuid5_ecx & IL_CPUID5_ECX_EXTENSIONS_SUPPORTED) ||
	    !(p->cpuid5_ecx & IL_CPUID5_ECX_INTERRUPT_BREAK)) {
		snprintf(why, n, "CPUID.5:ECX lacks MWAIT extensions or interrupt break");
		return false;
	}
	return true;
}

int il_acpi_evaluate_cst(const struct il_platform *p, struct il_machine_idle *m,
			 struct il_acpi_power *power, const char *who)
{
	int last_index = 0;
	bool nomwait = il_boot_idle_override(p) == IL_IDLE_NOMWAIT;

	if (!p->has_cst || p->c_states_disabled)
		return -ENODEV;
	/* the count field must be at least 1 and match the package */
	if (p->ncst < 1) {
		il_machine_note(m, "%s: %s: Invalid/inconsistent _CST data (no entries)", who, p->file);
		return -EFAULT;
	}
	for (int i = 0; i < p->ncst; i++) {
		const struct il_cst_entry *e = &p->cst[i];
		struct il_acpi_cx cx;
		char why[IL_NOTE_LEN];

		if (last_index >= IL_ACPI_MAX_POWER - 1) {
			il_machine_note(m, "%s: %s:%d: No room for more idle states (limit: %d), "
					"[cst.%d] and later dropped", who, p->file, e->line,
					IL_ACPI_MAX_POWER - 1, i + 1);
			break;
		}
		memset(&cx, 0, sizeof(cx));
		cx.type = e->type;
		cx.line = e->line;
		/* a first entry that is not C1 leaves slot 1 for a C1 to be filled in */
		if (i == 0 && cx.type != IL_ACPI_STATE_C1)
			last_index = 1;
		cx.address = e->address;

		if (e->method == IL_CST_FFH || e->method == IL_CST_HALT) {
			/* FIXED_HARDWARE; "halt" is the HLT form the MWAIT probe rejects */
			bool ok = e->method == IL_CST_FFH && ffh_probe(p, e->address, why, sizeof(why));

			if (e->method == IL_CST_HALT)
				snprintf(why, sizeof(why), "register is not the MWAIT (native C-state) form");
			if (ok) {
				if (cx.type == IL_ACPI_STATE_C1 && nomwait) {
					cx.method = IL_ACPI_CX_HALT;
					snprintf(cx.desc, sizeof(cx.desc), "ACPI HLT");
					il_machine_note(m, "%s: idle=nomwait: C1 is entered with HLT", who);
				} else {
					cx.method = IL_ACPI_CX_FFH;
					snprintf(cx.desc, sizeof(cx.desc), "ACPI FFH MWAIT 0x%x", cx.address);
				}
			} else if (cx.type == IL_ACPI_STATE_C1) {
				cx.method = IL_ACPI_CX_HALT;
				snprintf(cx.desc, sizeof(cx.desc), "ACPI HLT");
				if (e->method == IL_CST_FFH)
					il_machine_note(m, "%s: %s:%d: [cst.%d] %s: C1 falls back to HLT",
							who, p->file, e->line, i + 1, why);
			} else {
				il_machine_note(m, "%s: %s:%d: _CST C%d declares FIXED_HARDWARE C-state but "
						"not supported in hardware (%s), skip", who, p->file,
						e->line, i + 1, why);
				continue;
			}
		} else {
			cx.method = IL_ACPI_CX_SYSTEMIO;
			snprintf(cx.desc, sizeof(cx.desc), "ACPI IOPORT 0x%x", cx.address);
		}
		if (cx.type == IL_ACPI_STATE_C1)
			cx.valid = true;
		cx.latency = e->latency_us;
		power->states[++last_index] = cx;
	}
	power->count = last_index;
	return 0;
}

int il_acpi_cst_max_slot(const struct il_platform *p)
{
	int n;

	if (!p->has_cst || p->c_states_disabled || p->ncst < 1)
		return 0;
	/* a first entry that is not C1 starts at slot 2 */
	n = p->ncst + (p->cst[0].type != IL_ACPI_STATE_C1);
	return n < IL_ACPI_MAX_POWER - 1 ? n : IL_ACPI_MAX_POWER - 1;
}
