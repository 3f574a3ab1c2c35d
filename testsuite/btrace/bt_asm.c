/* The second corpus program: control flow GDB's function-segment rules
   treat specially, written in assembly so the compiler cannot change it.
   It is never run; tests read its ELF and encode traces through it.
   The functions have ELF symbols (with sizes) but no DWARF.

     t_main: call t_a; call t_pic; ret
     t_a:    nop; jmp t_b          a jump to a function's start: tail call
     t_b:    nop; ret              returns to t_main
     t_pic:  call 1f; 1: pop %rax  a call to the next instruction (PIC)
             nop                   then falls through into t_c: a switch
     t_c:    nop; ret              returns to t_main

   It also carries functions with names GDB prints differently from their
   ELF spelling (GNAT-style decoding), for bt_msym_name's test.  */

__asm__(
	"	.text\n"
	"	.globl	t_main\n"
	"	.type	t_main, @function\n"
	"t_main:\n"
	"	call	t_a\n"
	"	call	t_pic\n"
	"	ret\n"
	"	.size	t_main, .-t_main\n"
	"	.type	t_a, @function\n"
	"t_a:\n"
	"	nop\n"
	"	jmp	t_b\n"
	"	.size	t_a, .-t_a\n"
	"	.type	t_b, @function\n"
	"t_b:\n"
	"	nop\n"
	"	ret\n"
	"	.size	t_b, .-t_b\n"
	"	.type	t_pic, @function\n"
	"t_pic:\n"
	"	call	1f\n"
	"1:	pop	%rax\n"
	"	nop\n"
	"	.size	t_pic, .-t_pic\n"
	"	.type	t_c, @function\n"
	"t_c:\n"
	"	nop\n"
	"	ret\n"
	"	.size	t_c, .-t_c\n"
#define BT_ODD(name) \
	"	.type	\"" name "\", @function\n" \
	"\"" name "\":\n	ret\n" \
	"	.size	\"" name "\", 1\n"
	BT_ODD("w_a__b") BT_ODD("w_fooX") BT_ODD("w_f.cold")
	BT_ODD("w_g.part.0") BT_ODD("W_upper.part.0") BT_ODD("w_h$1")
	BT_ODD("w_y__3") BT_ODD("w_zB") BT_ODD("w_q.isra.0.cold")
	BT_ODD("w_t__B_12__u") BT_ODD("w_xn.constprop.0")
	BT_ODD("w_mTB") BT_ODD("w_e_E12s"));

int main(void)
{
	return 0;
}
