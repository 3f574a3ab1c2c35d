/* Kept by testsuite/exact/fuzz.py: its trace differed from single-step.
   flags: -O0 */
/*
 * This is a RANDOMLY GENERATED PROGRAM.
 *
 * Generator: csmith 2.3.0
 * Git version: 30dccd7
 * Options:   --seed 160483541 --max-funcs 6 --max-block-depth 3 --no-volatiles
 * Seed:      160483541
 */

#include "csmith.h"


static long __undefined;

/* --- Struct/Union Declarations --- */
union U0 {
   unsigned f0 : 9;
   uint32_t  f1;
};

/* --- GLOBAL VARIABLES --- */
static int8_t g_5 = (-5L);
static uint16_t g_43 = 2UL;
static uint32_t g_65[3][1][2] = {{{0x7F726845L,0x7F726845L}},{{0x7F726845L,0x7F726845L}},{{0x7F726845L,0x7F726845L}}};
static int32_t g_68[7][6] = {{0xFC22F747L,0xFC22F747L,0xFC22F747L,0xFC22F747L,0xFC22F747L,0xFC22F747L},{0xFC22F747L,0xFC22F747L,0xFC22F747L,0xFC22F747L,0xFC22F747L,0xFC22F747L},{0xFC22F747L,0xFC22F747L,0xFC22F747L,0xFC22F747L,0xFC22F747L,0xFC22F747L},{0xFC22F747L,0xFC22F747L,0xFC22F747L,0xFC22F747L,0xFC22F747L,0xFC22F747L},{0xFC22F747L,0xFC22F747L,0xFC22F747L,0xFC22F747L,0xFC22F747L,0xFC22F747L},{0xFC22F747L,0xFC22F747L,0xFC22F747L,0xFC22F747L,0xFC22F747L,0xFC22F747L},{0xFC22F747L,0xFC22F747L,0xFC22F747L,0xFC22F747L,0xFC22F747L,0xFC22F747L}};
static union U0 g_82 = {0x82727C90L};
static int32_t g_86 = 0x28F03758L;
static uint16_t g_94 = 0xD76CL;
static int32_t *g_98 = &g_68[1][5];
static int16_t g_106 = 0x72CFL;
static int16_t *g_105 = &g_106;
static int32_t g_118 = 0x8A4AD72EL;
static int16_t ** const g_126 = &g_105;
static int16_t ** const *g_125 = &g_126;
static uint64_t g_140[3][1] = {{4UL},{4UL},{4UL}};
static const int32_t g_146 = (-1L);
static int16_t **g_185 = &g_105;
static int16_t ***g_184 = &g_185;
static int16_t ****g_183 = &g_184;
static const int32_t *g_228 = &g_118;
static union U0 g_238[5] = {{9UL},{9UL},{9UL},{9UL},{9UL}};
static int32_t g_240 = 1L;
static uint32_t g_241 = 18446744073709551606UL;
static uint32_t g_244 = 0UL;
static uint8_t g_259 = 255UL;
static int8_t g_284 = 1L;
static int16_t g_285 = 0x4472L;
static int64_t g_340[10] = {0x7E7987FC7DBD7DCALL,(-1L),(-1L),0x7E7987FC7DBD7DCALL,(-1L),(-1L),0x7E7987FC7DBD7DCALL,(-1L),(-1L),0x7E7987FC7DBD7DCALL};
static int16_t g_422 = 0xAC1EL;
static uint8_t *g_444 = (void*)0;
static uint16_t *g_481 = (void*)0;
static uint16_t g_483 = 0x5C83L;
static uint8_t g_493 = 254UL;
static int64_t g_534 = 0xF7564D186F23EEDBLL;
static int16_t g_591 = 0xBF27L;
static int32_t g_613[8] = {1L,1L,1L,1L,1L,1L,1L,1L};
static union U0 *g_629[7] = {(void*)0,(void*)0,(void*)0,(void*)0,(void*)0,(void*)0,(void*)0};
static union U0 **g_628 = &g_629[1];
static int32_t *g_643[2][9][2] = {{{&g_68[4][1],&g_240},{(void*)0,&g_68[6][5]},{&g_68[4][1],&g_68[6][5]},{(void*)0,&g_240},{&g_68[4][1],&g_240},{(void*)0,&g_68[6][5]},{&g_68[4][1],&g_68[6][5]},{(void*)0,&g_240},{&g_68[4][1],&g_240}},{{(void*)0,&g_68[6][5]},{&g_68[4][1],&g_68[6][5]},{(void*)0,&g_240},{&g_68[4][1],&g_240},{(void*)0,&g_68[6][5]},{&g_68[4][1],&g_68[6][5]},{(void*)0,&g_240},{&g_68[4][1],&g_240},{(void*)0,&g_68[6][5]}}};
static uint8_t g_689 = 0xBEL;
static int64_t g_742 = 1L;
static int64_t *g_759 = &g_742;
static int64_t **g_758 = &g_759;
static const uint16_t g_796[5] = {0x5304L,0x5304L,0x5304L,0x5304L,0x5304L};
static uint16_t g_803[9][7][4] = {{{65530UL,0x8083L,0x8083L,65530UL},{1UL,1UL,3UL,0x8083L},{1UL,65527UL,65532UL,0x5541L},{0xB7ACL,1UL,0x8083L,0x5541L},{65535UL,65527UL,65535UL,0x8083L},{65530UL,1UL,65526UL,65530UL},{0xB7ACL,0x8083L,3UL,1UL}},{{0x8083L,65527UL,3UL,3UL},{0xB7ACL,0xB7ACL,65526UL,0x5541L},{65530UL,0x0332L,65535UL,1UL},{65535UL,1UL,0x8083L,65535UL},{0xB7ACL,1UL,65532UL,1UL},{1UL,0x0332L,3UL,0x5541L},{1UL,0xB7ACL,0x8083L,3UL}},{{65530UL,65527UL,0xB5BBL,1UL},{65530UL,0x8083L,0x8083L,65530UL},{1UL,1UL,3UL,0x8083L},{1UL,65527UL,65532UL,0x5541L},{0xB7ACL,1UL,0x8083L,0x5541L},{65535UL,65527UL,65535UL,0x8083L},{65530UL,1UL,65526UL,65530UL}},{{0xB7ACL,0x8083L,3UL,1UL},{0x8083L,65527UL,3UL,3UL},{0xB7ACL,0xB7ACL,65526UL,0x5541L},{65530UL,0x0332L,65535UL,1UL},{65535UL,1UL,0x8083L,65535UL},{0xB7ACL,1UL,65532UL,1UL},{1UL,0x0332L,3UL,0x5541L}},{{1UL,0xB7ACL,0x8083L,1UL},{3UL,1UL,0x5541L,65535UL},{3UL,0xB5BBL,0xB5BBL,3UL},{65526UL,65535UL,1UL,0xB5BBL},{65535UL,1UL,65527UL,0x0332L},{0x8083L,65526UL,0xB5BBL,0x0332L},{65532UL,1UL,65532UL,0xB5BBL}},{{3UL,65535UL,65530UL,3UL},{0x8083L,0xB5BBL,1UL,65535UL},{0xB5BBL,1UL,1UL,1UL},{0x8083L,0x8083L,65530UL,0x0332L},{3UL,6UL,65532UL,65535UL},{65532UL,65535UL,0xB5BBL,65532UL},{0x8083L,65535UL,65527UL,65535UL}},{{65535UL,6UL,1UL,0x0332L},{65526UL,0x8083L,0xB5BBL,1UL},{3UL,1UL,0x5541L,65535UL},{3UL,0xB5BBL,0xB5BBL,3UL},{65526UL,65535UL,1UL,0xB5BBL},{65535UL,1UL,65527UL,0x0332L},{0x8083L,65526UL,0xB5BBL,0x0332L}},{{65532UL,1UL,65532UL,0xB5BBL},{3UL,65535UL,65530UL,3UL},{0x8083L,0xB5BBL,1UL,65535UL},{0xB5BBL,1UL,1UL,1UL},{0x8083L,0x8083L,65530UL,0x0332L},{3UL,6UL,65532UL,65535UL},{65532UL,65535UL,0xB5BBL,65532UL}},{{0x8083L,65535UL,65527UL,65535UL},{65535UL,6UL,1UL,0x0332L},{65526UL,0x8083L,0xB5BBL,1UL},{3UL,1UL,0x5541L,65535UL},{3UL,0xB5BBL,0xB5BBL,3UL},{65526UL,65535UL,1UL,0xB5BBL},{65535UL,1UL,65527UL,0x0332L}}};
static int8_t g_853 = 4L;
static const int16_t *g_979 = &g_285;
static const int16_t **g_978 = &g_979;
static const int16_t ***g_977 = &g_978;
static const int16_t ****g_976 = &g_977;
static const int16_t *****g_975[5] = {&g_976,&g_976,&g_976,&g_976,&g_976};
static uint32_t g_981 = 0x39CFEB73L;
static uint32_t g_1001[6] = {1UL,1UL,0x400F61F3L,1UL,1UL,0x400F61F3L};
static int32_t *g_1058[1][4] = {{&g_613[2],&g_613[2],&g_613[2],&g_613[2]}};
static int32_t **g_1057 = &g_1058[0][2];
static const int32_t *g_1066 = (void*)0;
static const int32_t **g_1065 = &g_1066;


/* --- FORWARD DECLARATIONS --- */
static uint64_t  func_1(void);
static uint8_t  func_25(int64_t  p_26, int32_t  p_27, int32_t  p_28, const int16_t  p_29);
static uint8_t  func_49(uint16_t * p_50, uint16_t * p_51, uint16_t * p_52, uint16_t  p_53);
static uint16_t * func_54(int8_t  p_55);
static const uint16_t  func_61(uint8_t  p_62);
static int32_t  func_76(int32_t  p_77, uint16_t * p_78, int32_t  p_79);


/* --- FUNCTIONS --- */
/* ------------------------------------------ */
/* 
 * reads : g_796
 * writes:
 */
static uint64_t  func_1(void)
{ /* block id: 0 */
    uint16_t *l_42[10][10][2] = {{{&g_43,&g_43},{&g_43,&g_43},{&g_43,&g_43},{&g_43,(void*)0},{(void*)0,(void*)0},{&g_43,&g_43},{&g_43,&g_43},{&g_43,(void*)0},{(void*)0,&g_43},{&g_43,&g_43}},{{&g_43,&g_43},{(void*)0,&g_43},{&g_43,(void*)0},{&g_43,(void*)0},{&g_43,&g_43},{(void*)0,&g_43},{&g_43,&g_43},{&g_43,&g_43},{(void*)0,(void*)0},{&g_43,&g_43}},{{&g_43,(void*)0},{&g_43,&g_43},{&g_43,&g_43},{&g_43,(void*)0},{(void*)0,&g_43},{&g_43,&g_43},{&g_43,&g_43},{&g_43,&g_43},{&g_43,&g_43},{(void*)0,&g_43}},{{&g_43,&g_43},{&g_43,&g_43},{&g_43,&g_43},{&g_43,&g_43},{&g_43,(void*)0},{&g_43,&g_43},{(void*)0,&g_43},{(void*)0,&g_43},{&g_43,(void*)0},{&g_43,&g_43}},{{&g_43,&g_43},{&g_43,&g_43},{&g_43,&g_43},{&g_43,&g_43},{(void*)0,&g_43},{&g_43,&g_43},{&g_43,&g_43},{&g_43,&g_43},{&g_43,&g_43},{(void*)0,(void*)0}},{{&g_43,&g_43},{&g_43,&g_43},{&g_43,(void*)0},{&g_43,&g_43},{&g_43,(void*)0},{&g_43,&g_43},{(void*)0,(void*)0},{&g_43,&g_43},{&g_43,&g_43},{&g_43,&g_43}},{{(void*)0,&g_43},{&g_43,&g_43},{&g_43,&g_43},{&g_43,(void*)0},{(void*)0,&g_43},{&g_43,(void*)0},{&g_43,&g_43},{&g_43,(void*)0},{&g_43,&g_43},{&g_43,&g_43}},{{&g_43,(void*)0},{(void*)0,&g_43},{&g_43,&g_43},{&g_43,&g_43},{&g_43,&g_43},{&g_43,&g_43},{(void*)0,&g_43},{&g_43,&g_43},{&g_43,&g_43},{&g_43,&g_43}},{{&g_43,&g_43},{&g_43,(void*)0},{&g_43,&g_43},{(void*)0,&g_43},{(void*)0,&g_43},{&g_43,(void*)0},{&g_43,&g_43},{&g_43,&g_43},{&g_43,&g_43},{&g_43,&g_43}},{{&g_43,&g_43},{(void*)0,&g_43},{&g_43,&g_43},{&g_43,&g_43},{&g_43,&g_43},{&g_43,&g_43},{(void*)0,(void*)0},{&g_43,&g_43},{&g_43,&g_43},{&g_43,(void*)0}}};
    int32_t l_44[8][5] = {{0x71808ADCL,0x0DC4B636L,0x71808ADCL,(-1L),0xE0F61949L},{0x3253674FL,(-3L),0xE0F61949L,(-1L),0x71808ADCL},{0xE0F61949L,0x05BE734EL,(-3L),(-3L),0x05BE734EL},{0x05BE734EL,0x5AD6CAD8L,0xE0F61949L,0x71808ADCL,(-1L)},{0x0DC4B636L,0x5AD6CAD8L,0x71808ADCL,0xED0F12AFL,0x65DD4D14L},{0x922CBD4DL,0x05BE734EL,0x05BE734EL,0x922CBD4DL,0x0DC4B636L},{0x6200D40AL,0x05BE734EL,0x65DD4D14L,(-1L),0x0DC4B636L},{0x922CBD4DL,0x6200D40AL,0x3253674FL,0xED0F12AFL,0x3253674FL}};
    int16_t l_66 = 0xABE3L;
    const int32_t l_148[2][5] = {{(-10L),(-10L),(-10L),(-10L),(-10L)},{(-1L),(-1L),(-1L),(-1L),(-1L)}};
    uint16_t *l_482 = &g_483;
    int16_t *l_663[3][7] = {{&g_285,&g_106,&g_285,&g_285,&g_106,&g_285,&g_285},{&g_285,&g_285,&g_106,&g_285,&g_285,&g_106,&g_285},{&g_106,&g_285,&g_285,&g_106,&g_285,&g_285,&g_106}};
    int32_t l_671 = 0x0CF9144AL;
    uint32_t l_676 = 0x1AF050ADL;
    uint32_t l_738[2][9] = {{4294967286UL,4294967286UL,4294967295UL,8UL,0xE0D409ACL,8UL,4294967295UL,4294967286UL,4294967286UL},{0x30C6C37DL,0xE4AA1A79L,4294967286UL,8UL,4294967286UL,0xE4AA1A79L,0x30C6C37DL,0x30C6C37DL,0xE4AA1A79L}};
    int32_t l_749 = 0x365A1191L;
    union U0 l_775[1] = {{0xFFDB15E0L}};
    int32_t l_814 = 0x286E2823L;
    int16_t ***l_847 = &g_185;
    int32_t l_854[10] = {0x05D6C5D7L,7L,0x05D6C5D7L,7L,0x05D6C5D7L,7L,0x05D6C5D7L,7L,0x05D6C5D7L,7L};
    uint32_t l_888 = 4294967295UL;
    int64_t l_897 = 0x0B1CEC5CE444D7C7LL;
    uint32_t l_921[2];
    union U0 * const *l_933[5][10] = {{(void*)0,(void*)0,&g_629[1],&g_629[1],&g_629[1],&g_629[1],&g_629[4],&g_629[1],(void*)0,&g_629[4]},{&g_629[1],&g_629[1],&g_629[1],&g_629[1],&g_629[6],&g_629[1],&g_629[1],&g_629[6],&g_629[1],&g_629[1]},{(void*)0,(void*)0,(void*)0,&g_629[6],&g_629[1],&g_629[1],&g_629[1],(void*)0,&g_629[1],&g_629[1]},{&g_629[1],&g_629[1],&g_629[1],&g_629[4],&g_629[1],&g_629[1],&g_629[1],&g_629[1],&g_629[1],&g_629[4]},{(void*)0,(void*)0,(void*)0,&g_629[1],&g_629[1],&g_629[1],&g_629[1],&g_629[4],&g_629[1],(void*)0}};
    union U0 * const **l_932 = &l_933[0][6];
    union U0 * const ***l_931[5];
    int16_t l_934 = 0x7C87L;
    int8_t l_965 = 1L;
    const int16_t *l_974 = &l_66;
    const int16_t **l_973 = &l_974;
    const int16_t ***l_972[6][6] = {{&l_973,&l_973,&l_973,&l_973,&l_973,&l_973},{&l_973,&l_973,&l_973,&l_973,&l_973,&l_973},{&l_973,&l_973,&l_973,&l_973,&l_973,&l_973},{&l_973,&l_973,&l_973,&l_973,&l_973,&l_973},{&l_973,&l_973,&l_973,&l_973,&l_973,&l_973},{&l_973,&l_973,&l_973,&l_973,&l_973,&l_973}};
    const int16_t ****l_971 = &l_972[2][5];
    const int16_t *****l_970 = &l_971;
    int32_t *l_980[5];
    int8_t *l_995 = (void*)0;
    int8_t *l_996 = &g_5;
    int16_t ***l_1002 = &g_185;
    int16_t l_1003[3][9] = {{0xB043L,0xB043L,0xB043L,0xB043L,0xB043L,0xB043L,0xB043L,0xB043L,0xB043L},{(-9L),(-9L),(-9L),(-9L),(-9L),(-9L),(-9L),(-9L),(-9L)},{0xB043L,0xB043L,0xB043L,0xB043L,0xB043L,0xB043L,0xB043L,0xB043L,0xB043L}};
    uint8_t l_1039 = 1UL;
    int16_t l_1040 = (-5L);
    int16_t *****l_1044 = &g_183;
    int32_t **l_1059 = &g_1058[0][1];
    int32_t **l_1060 = &g_1058[0][2];
    int64_t ** const l_1062 = &g_759;
    uint32_t l_1080 = 1UL;
    uint32_t l_1098 = 0xE71422ADL;
    int i, j, k;
    for (i = 0; i < 2; i++)
        l_921[i] = 0xD27B9B4EL;
    for (i = 0; i < 5; i++)
        l_931[i] = &l_932;
    for (i = 0; i < 5; i++)
        l_980[i] = &l_671;
    return g_796[0];
}


/* ------------------------------------------ */
/* 
 * reads : g_94 g_340 g_43 g_5 g_244 g_86 g_284 g_68 g_591 g_238 g_183 g_184 g_106 g_613 g_65 g_422 g_82 g_240 g_228 g_118 g_146 g_98 g_238.f0 g_140 g_82.f1
 * writes: g_94 g_244 g_284 g_534 g_68 g_285 g_98 g_228 g_340 g_259 g_86 g_628 g_240 g_493 g_643 g_82.f1
 */
static uint8_t  func_25(int64_t  p_26, int32_t  p_27, int32_t  p_28, const int16_t  p_29)
{ /* block id: 224 */
    uint16_t l_577 = 0x6937L;
    int32_t l_580 = 0L;
    int16_t l_614[7];
    int64_t l_617 = 0x1187E1C36E189746LL;
    union U0 **l_630 = &g_629[5];
    const uint32_t l_639 = 0xD71CA3E6L;
    int i;
    for (i = 0; i < 7; i++)
        l_614[i] = 0x7A8AL;
    for (g_94 = 0; (g_94 >= 5); g_94++)
    { /* block id: 227 */
        uint32_t *l_567 = &g_238[3].f1;
        int32_t l_568 = 1L;
        int32_t l_569 = 6L;
        uint32_t *l_570 = (void*)0;
        uint32_t *l_571 = &g_244;
        int8_t *l_574 = &g_284;
        int64_t *l_578 = &g_534;
        int8_t l_579 = 0x2DL;
        if ((safe_div_func_int32_t_s_s(((p_26 < (safe_rshift_func_int8_t_s_s((safe_sub_func_int32_t_s_s((safe_div_func_uint8_t_u_u(g_340[0], 255UL)), g_43)), (g_5 , ((safe_mul_func_int16_t_s_s((safe_div_func_uint16_t_u_u((((++(*l_571)) , 0x3E19B219L) <= (((*l_578) = (((*l_574) &= g_86) & ((safe_div_func_int32_t_s_s((4294967295UL ^ l_569), p_28)) || l_577))) || 0x3F5ADDD1CBBF3798LL)), 0xC67CL)), l_579)) , g_43))))) | p_28), 1UL)))
        { /* block id: 231 */
            int32_t *l_581 = &g_68[3][5];
            const int32_t **l_586 = &g_228;
            const int32_t *l_588 = &l_568;
            const int32_t **l_587 = &l_588;
            int64_t *l_598 = &g_534;
            (*l_581) &= (p_29 || (l_580 ^= p_29));
            for (g_285 = 25; (g_285 > 16); g_285 = safe_sub_func_int32_t_s_s(g_285, 1))
            { /* block id: 236 */
                int32_t *l_584 = (void*)0;
                int32_t **l_585 = &g_98;
                (*l_585) = l_584;
                (*l_585) = &p_28;
            }
            (*l_587) = ((*l_586) = &g_240);
            (*l_581) ^= (l_569 , (((safe_sub_func_uint32_t_u_u(((*l_571) &= (g_591 , ((void*)0 == &g_140[2][0]))), (safe_div_func_int8_t_s_s((safe_add_func_int16_t_s_s((safe_mod_func_uint32_t_u_u((g_340[9] | 1UL), (((l_598 = (void*)0) == (void*)0) , ((0UL < p_29) , (-1L))))), l_579)), 0x40L)))) | 4294967295UL) || l_568));
        }
        else
        { /* block id: 245 */
            int64_t l_611 = 0x86BA0B29B6B5A0FALL;
            int32_t *l_612[2];
            int64_t *l_615 = (void*)0;
            int64_t *l_616 = &g_340[7];
            uint8_t *l_618 = (void*)0;
            uint8_t *l_619 = &g_259;
            int i;
            for (i = 0; i < 2; i++)
                l_612[i] = &l_569;
            p_28 = (((g_238[2] , (safe_add_func_int32_t_s_s((((safe_mod_func_uint8_t_u_u(((*l_619) = (((((safe_mul_func_int8_t_s_s((((void*)0 == &g_244) < ((*l_616) |= ((((safe_mod_func_uint16_t_u_u((p_27 != (safe_lshift_func_uint8_t_u_s((p_29 || ((((safe_lshift_func_uint8_t_u_u((((((*l_578) = p_28) == ((((l_611 == (l_580 = 0L)) , (void*)0) == (*g_183)) , g_106)) ^ 0UL) ^ p_29), 2)) , 0UL) ^ 0L) , 0UL)), 7))), g_613[2])) , g_65[2][0][1]) & l_614[0]) & g_422))), l_617)) & g_422) , 0x1BDAL) ^ p_26) , l_614[1])), 0x17L)) >= p_29) < p_29), p_26))) >= 1UL) != p_29);
            for (l_568 = (-1); (l_568 < 27); l_568 = safe_add_func_int8_t_s_s(l_568, 6))
            { /* block id: 253 */
                return p_26;
            }
        }
    }
    for (g_86 = 0; (g_86 <= 5); g_86 += 1)
    { /* block id: 260 */
        union U0 *l_627 = &g_82;
        union U0 **l_626 = &l_627;
        int32_t l_640 = (-1L);
        int32_t *l_641 = &g_240;
        (*l_641) |= (safe_mul_func_uint8_t_u_u((safe_add_func_uint64_t_u_u(((g_628 = l_626) != l_630), (((**l_626) , (((g_5 <= p_26) && (safe_lshift_func_int8_t_s_s((((safe_lshift_func_int16_t_s_s((safe_div_func_int64_t_s_s(((safe_add_func_uint16_t_u_u(p_28, (((void*)0 == &l_577) && l_639))) && l_614[5]), l_640)), 9)) && p_26) ^ p_29), p_29))) , 5L)) ^ (-9L)))), l_640));
        for (g_493 = 2; (g_493 <= 7); g_493 += 1)
        { /* block id: 265 */
            int32_t **l_642[8][10] = {{&l_641,&l_641,&l_641,&l_641,&l_641,&l_641,&l_641,&l_641,&l_641,&l_641},{&l_641,&l_641,&l_641,&l_641,&l_641,&l_641,&l_641,&l_641,&l_641,&l_641},{&l_641,&l_641,&l_641,&l_641,&l_641,&l_641,&l_641,&l_641,&l_641,&l_641},{&l_641,&l_641,&l_641,&l_641,&l_641,&l_641,&l_641,&l_641,&l_641,&l_641},{&l_641,&l_641,&l_641,&l_641,&l_641,&l_641,&l_641,&l_641,&l_641,&l_641},{&l_641,&l_641,&l_641,&l_641,&l_641,&l_641,&l_641,&l_641,&l_641,&l_641},{&l_641,&l_641,&l_641,&l_641,&l_641,&l_641,&l_641,&l_641,&l_641,&l_641},{&l_641,&l_641,&l_641,&l_641,&l_641,&l_641,&l_641,&l_641,&l_641,&l_641}};
            uint16_t *l_660[9][4] = {{&l_577,&g_43,&l_577,&l_577},{&g_43,&g_43,&g_483,&g_43},{&g_43,&l_577,&l_577,&g_43},{&l_577,&g_43,&l_577,&l_577},{&g_43,&g_43,&g_483,&g_43},{&g_43,&l_577,&l_577,&g_43},{&l_577,&g_43,&l_577,&l_577},{&g_43,&g_43,&g_483,&g_43},{&g_43,&l_577,&l_577,&g_43}};
            int i, j;
            if (g_68[(g_86 + 1)][g_86])
                break;
            if (((l_641 = &l_640) == (g_643[0][7][0] = (void*)0)))
            { /* block id: 269 */
                g_98 = ((*g_228) , &g_118);
                if ((*l_641))
                    break;
                if ((*g_98))
                    break;
            }
            else
            { /* block id: 273 */
                uint32_t l_646 = 1UL;
                union U0 **l_659[7][6] = {{(void*)0,(void*)0,(void*)0,(void*)0,(void*)0,(void*)0},{(void*)0,(void*)0,(void*)0,(void*)0,(void*)0,(void*)0},{(void*)0,(void*)0,(void*)0,(void*)0,(void*)0,(void*)0},{(void*)0,(void*)0,(void*)0,(void*)0,(void*)0,(void*)0},{(void*)0,(void*)0,(void*)0,(void*)0,(void*)0,(void*)0},{(void*)0,(void*)0,(void*)0,(void*)0,(void*)0,(void*)0},{(void*)0,(void*)0,(void*)0,(void*)0,(void*)0,(void*)0}};
                uint32_t *l_661 = (void*)0;
                uint32_t *l_662[6];
                int i, j;
                for (i = 0; i < 6; i++)
                    l_662[i] = &g_244;
                g_68[(g_86 + 1)][g_86] ^= (((safe_sub_func_int32_t_s_s(l_646, p_26)) < (safe_mod_func_int32_t_s_s((((safe_sub_func_int64_t_s_s(((l_580 = ((((p_26 == (((g_238[3].f0 | 0xE6L) >= ((safe_mul_func_int16_t_s_s(((safe_sub_func_uint16_t_u_u((((safe_rshift_func_uint16_t_u_s(((safe_div_func_int64_t_s_s(((void*)0 != l_659[3][5]), (((void*)0 == l_660[0][3]) , g_65[2][0][1]))) ^ 4294967287UL), (*l_641))) , g_591) ^ (*l_641)), g_65[2][0][1])) , 0x20CAL), (-1L))) , 1L)) && l_646)) & p_26) & p_28) ^ p_26)) <= g_140[2][0]), p_27)) || p_27) < 0xB7866E15L), (*g_228)))) != g_340[4]);
            }
            for (g_82.f1 = 1; (g_82.f1 <= 7); g_82.f1 += 1)
            { /* block id: 279 */
                if ((*l_641))
                    break;
                if (p_28)
                    break;
            }
        }
    }
    return l_577;
}


/* ------------------------------------------ */
/* 
 * reads : g_259 g_94 g_125 g_126 g_105 g_106 g_285 g_284 g_422 g_493 g_185 g_68 g_5 g_340 g_183 g_184 g_82.f0 g_86 g_228 g_118 g_146
 * writes: g_259 g_493 g_284 g_422 g_285 g_68 g_340 g_86 g_98 g_241 g_65
 */
static uint8_t  func_49(uint16_t * p_50, uint16_t * p_51, uint16_t * p_52, uint16_t  p_53)
{ /* block id: 181 */
    int16_t l_486 = (-3L);
    int32_t * const l_495 = &g_68[6][5];
    int16_t *****l_499 = &g_183;
    int32_t l_516 = (-10L);
    int32_t l_519 = 0xDB031C68L;
    for (g_259 = (-4); (g_259 > 33); ++g_259)
    { /* block id: 184 */
        int8_t l_487 = 0L;
        uint8_t *l_492 = &g_493;
        int8_t *l_494 = &g_284;
        int32_t *l_496 = &g_240;
        int64_t *l_535 = &g_534;
        uint32_t l_549 = 0x010215C6L;
        l_496 = ((p_53 != ((((g_94 , l_486) > p_53) , l_487) , (safe_mul_func_int16_t_s_s((***g_125), (((*l_494) ^= ((((safe_mul_func_uint8_t_u_u(((*l_492) = (g_285 != l_487)), ((l_486 == 0UL) || p_53))) >= l_487) != 18446744073709551613UL) , 0xA7L)) | 2L))))) , l_495);
        for (g_422 = (-16); (g_422 == 8); g_422 = safe_add_func_uint32_t_u_u(g_422, 1))
        { /* block id: 190 */
            uint32_t l_515[1];
            int16_t *l_517 = &g_285;
            uint32_t *l_518 = &l_515[0];
            int i;
            for (i = 0; i < 1; i++)
                l_515[i] = 9UL;
            l_499 = &g_183;
            for (g_493 = 0; (g_493 < 11); g_493 = safe_add_func_int32_t_s_s(g_493, 2))
            { /* block id: 194 */
                return p_53;
            }
            l_519 ^= (!((*l_518) = (safe_sub_func_uint64_t_u_u((safe_lshift_func_uint8_t_u_s(((((*l_492) = (safe_rshift_func_uint8_t_u_u((safe_add_func_int16_t_s_s(((**g_185) < (safe_mod_func_uint64_t_u_u((*l_495), (safe_rshift_func_int16_t_s_s(l_515[0], p_53))))), (((((&g_493 == l_492) & ((*l_517) = (p_53 != (l_516 = l_515[0])))) <= p_53) || p_53) ^ (*l_496)))), 2))) != 5L) <= 0x4736L), 2)), l_515[0]))));
            if (((void*)0 != &g_94))
            { /* block id: 202 */
                int64_t *l_530 = &g_340[7];
                int32_t l_531[9][1] = {{0x725B98D5L},{0x156B1581L},{0x156B1581L},{0x725B98D5L},{0x156B1581L},{0x156B1581L},{0x725B98D5L},{0x156B1581L},{0x156B1581L}};
                int64_t *l_533 = &g_534;
                int64_t **l_532 = &l_533;
                int i, j;
                (*l_495) = ((void*)0 == l_518);
                (*l_496) = (g_5 != ((!((0xF6L < (+(safe_rshift_func_uint16_t_u_s((safe_sub_func_uint64_t_u_u(0UL, ((*l_530) &= (+(safe_mod_func_uint8_t_u_u((!0x22L), 0x64L)))))), (l_531[3][0] <= 0x3C8C464FL))))) >= (0x028A064C34F01124LL < ((((*l_532) = (void*)0) == l_535) | p_53)))) && p_53));
            }
            else
            { /* block id: 207 */
                int16_t ** const *l_536 = (void*)0;
                int32_t *l_543 = &g_86;
                int8_t *l_548[4];
                int32_t **l_550 = &g_98;
                int i;
                for (i = 0; i < 4; i++)
                    l_548[i] = &l_487;
                (*l_496) = (((l_536 == (*g_183)) != ((l_549 = ((safe_rshift_func_uint8_t_u_u((safe_mul_func_uint16_t_u_u((((*l_543) = (safe_lshift_func_int16_t_s_u((0L < 0x4C10L), (*l_496)))) , ((((safe_sub_func_uint64_t_u_u((*l_495), 0x0D9D6E2B3784BDF9LL)) | (safe_div_func_int64_t_s_s((((*l_494) = 0L) | (0xDFL >= 9UL)), g_285))) || (-1L)) && g_82.f0)), p_53)), (*l_495))) >= p_53)) < p_53)) <= p_53);
                g_98 = &g_68[0][4];
                (*l_550) = &g_68[6][5];
            }
        }
    }
    for (g_86 = 0; (g_86 > 7); ++g_86)
    { /* block id: 219 */
        if ((*g_228))
            break;
        for (l_486 = 0; l_486 < 3; l_486 += 1)
        {
            for (g_241 = 0; g_241 < 1; g_241 += 1)
            {
                for (g_493 = 0; g_493 < 2; g_493 += 1)
                {
                    g_65[l_486][g_241][g_493] = 18446744073709551615UL;
                }
            }
        }
    }
    return p_53;
}


/* ------------------------------------------ */
/* 
 * reads : g_106 g_43 g_68 g_125 g_126 g_105 g_5 g_94 g_118 g_140 g_82 g_183 g_184 g_185 g_98 g_82.f0 g_146 g_65 g_238 g_241 g_244 g_240 g_284 g_340 g_259 g_285 g_444 g_422
 * writes: g_106 g_43 g_98 g_118 g_183 g_68 g_140 g_94 g_228 g_82.f1 g_241 g_244 g_284 g_285 g_340 g_238.f1 g_240 g_259 g_422
 */
static uint16_t * func_54(int8_t  p_55)
{ /* block id: 49 */
    uint16_t *l_151 = (void*)0;
    int32_t *l_154 = &g_68[6][5];
    uint32_t l_180 = 0x028BDB42L;
    int16_t **** const l_191 = &g_184;
    int16_t **** const *l_190 = &l_191;
    uint8_t *l_258 = &g_259;
    int16_t *****l_268 = &g_183;
    int32_t l_322 = (-2L);
    int32_t l_361 = 0x93C5793FL;
    uint16_t l_381 = 7UL;
    int64_t l_384 = 0x98FE6EC7DC168F05LL;
    for (g_106 = (-8); (g_106 < 22); g_106++)
    { /* block id: 52 */
        return l_151;
    }
    if (((-9L) == 1UL))
    { /* block id: 55 */
        int16_t **l_159 = &g_105;
        union U0 l_168 = {0UL};
        for (g_43 = 0; (g_43 != 7); g_43 = safe_add_func_int64_t_s_s(g_43, 1))
        { /* block id: 58 */
            int16_t **l_169[7] = {&g_105,&g_105,&g_105,&g_105,&g_105,&g_105,&g_105};
            int32_t l_172 = 0x753C3A8CL;
            int i;
            if (p_55)
            { /* block id: 59 */
                int32_t **l_155 = (void*)0;
                int32_t **l_156 = &g_98;
                (*l_156) = l_154;
            }
            else
            { /* block id: 61 */
                int32_t l_170 = 0xE401C7A7L;
                int32_t *l_171 = &g_118;
                (*l_171) &= ((((safe_div_func_uint8_t_u_u((l_159 != (((safe_mul_func_int16_t_s_s((p_55 >= (p_55 , (p_55 , (safe_div_func_uint32_t_u_u(g_68[0][2], 4294967295UL))))), (((p_55 , (*g_125)) == (((safe_mul_func_uint8_t_u_u(((safe_sub_func_uint16_t_u_u(((l_168 , (-8L)) <= (-1L)), (*g_105))) , g_5), 6L)) , g_94) , (void*)0)) != p_55))) , 1UL) , l_169[6])), 0xB9L)) && p_55) == 0x05L) , l_170);
            }
            if (l_172)
                continue;
        }
    }
    else
    { /* block id: 66 */
        uint8_t l_173 = 0x23L;
        uint8_t l_187 = 251UL;
        int16_t ****l_198 = &g_184;
        int32_t *l_224 = &g_68[4][5];
        union U0 l_237[3][5] = {{{4294967291UL},{4294967291UL},{4294967292UL},{4294967291UL},{4294967291UL}},{{0xD59963E9L},{4294967291UL},{0xD59963E9L},{0xD59963E9L},{4294967291UL}},{{4294967291UL},{0xD59963E9L},{0xD59963E9L},{4294967291UL},{0xD59963E9L}}};
        int32_t l_319[5][2][1] = {{{1L},{1L}},{{0xF9083A5CL},{1L}},{{1L},{0xF9083A5CL}},{{1L},{1L}},{{0xF9083A5CL},{0xF9083A5CL}}};
        uint64_t l_324 = 6UL;
        uint32_t l_343 = 0xD9EDB631L;
        uint32_t l_362 = 0UL;
        int32_t l_454 = 1L;
        int16_t l_471 = 0x793BL;
        int i, j, k;
        --l_173;
        if ((p_55 | g_140[1][0]))
        { /* block id: 68 */
            int16_t *****l_186 = &g_183;
            uint64_t *l_214[9] = {&g_140[2][0],&g_140[2][0],&g_140[2][0],&g_140[2][0],&g_140[2][0],&g_140[2][0],&g_140[2][0],&g_140[2][0],&g_140[2][0]};
            int32_t l_221[9][6] = {{0xB879C3BEL,0x208B1A24L,0L,9L,0xE2747AF8L,3L},{4L,0L,0xB879C3BEL,(-6L),0xF7C08783L,(-6L)},{0x8BAA0CC7L,9L,0x8BAA0CC7L,(-8L),0L,0xE2747AF8L},{0xE2747AF8L,1L,0x020E5220L,8L,1L,0L},{1L,0L,4L,8L,0xE368E80AL,(-8L)},{0xE2747AF8L,0xB879C3BEL,0xF7C08783L,(-8L),(-8L),0xF7C08783L},{0x8BAA0CC7L,0x8BAA0CC7L,0x44DB8ECAL,(-6L),0x12B7A87CL,1L},{4L,0x020E5220L,0x12B7A87CL,9L,0xCCA75C68L,0x44DB8ECAL},{0xB879C3BEL,4L,0x12B7A87CL,0xF7C08783L,0x8BAA0CC7L,1L}};
            uint32_t l_222[1];
            uint16_t *l_223 = &g_94;
            int32_t l_255 = (-6L);
            uint8_t *l_260 = &l_173;
            int16_t l_296 = 0x4BAAL;
            int8_t l_323 = (-6L);
            int i, j;
            for (i = 0; i < 1; i++)
                l_222[i] = 0x55FC917AL;
            (*l_154) = (18446744073709551606UL != (p_55 < (safe_rshift_func_uint16_t_u_s(l_180, (g_140[0][0] != (safe_div_func_int8_t_s_s((g_82 , (((*l_186) = g_183) == ((l_187 == ((***g_184) != (((void*)0 != l_190) <= p_55))) , &g_125))), 0xD7L)))))));
            if (((safe_mul_func_int16_t_s_s((safe_div_func_int16_t_s_s(((safe_lshift_func_int8_t_s_s(((l_198 == (void*)0) && (+((((((*l_154) &= (***g_184)) , ((safe_mul_func_int8_t_s_s(((safe_rshift_func_int16_t_s_s((((p_55 , ((safe_lshift_func_uint16_t_u_u(((*l_223) = ((safe_mod_func_uint64_t_u_u((((safe_mod_func_int16_t_s_s(0xD486L, (~(p_55 , ((((((safe_add_func_uint16_t_u_u((((+((void*)0 == (***l_198))) < ((g_140[2][0]--) , (safe_mul_func_uint16_t_u_u((safe_mul_func_int16_t_s_s(p_55, (**g_126))), l_221[3][4])))) < l_221[6][1]), p_55)) , (void*)0) != (**l_186)) , (-10L)) , 0x9481L) >= l_187))))) , 7UL) || (*g_98)), p_55)) && l_222[0])), 0)) ^ 4294967287UL)) | (-1L)) <= p_55), (*l_154))) & (*g_98)), 1L)) & g_82.f0)) < g_82.f0) , (***l_186)) != (void*)0))), p_55)) , (***g_125)), 0x07D1L)), l_173)) >= 0x327CFB3CL))
            { /* block id: 74 */
                int32_t **l_225 = (void*)0;
                const int32_t *l_227 = &l_221[3][4];
                const int32_t **l_226[8] = {&l_227,&l_227,&l_227,&l_227,&l_227,&l_227,&l_227,&l_227};
                uint32_t *l_233 = &g_82.f1;
                uint8_t *l_239[1];
                int i;
                for (i = 0; i < 1; i++)
                    l_239[i] = (void*)0;
                g_98 = l_224;
                g_228 = &g_146;
                (*l_224) = (safe_mul_func_int8_t_s_s((safe_sub_func_int8_t_s_s(((l_255 &= ((l_221[3][4] = (((((((((((*l_233) = g_146) , (+(safe_lshift_func_int8_t_s_s(0xADL, (l_237[1][1] , g_65[1][0][0]))))) > g_43) >= ((g_238[3] , (g_244 = (g_241++))) && (safe_rshift_func_uint16_t_u_s((((safe_add_func_uint8_t_u_u(p_55, ((l_221[1][5] & (safe_add_func_uint8_t_u_u((safe_sub_func_uint8_t_u_u((safe_mul_func_uint8_t_u_u((((*g_98) ^ l_221[3][4]) >= g_244), p_55)), (*l_224))), l_221[4][2]))) , g_65[0][0][1]))) , 0xDBA8L) < p_55), l_222[0])))) < (*g_98)) <= p_55) == p_55) & p_55) , 0x76L) >= p_55)) & p_55)) , 0xADL), 0L)), p_55));
            }
            else
            { /* block id: 83 */
                int64_t l_265 = 0x6FEF3AD9C0136009LL;
                int16_t ****l_269 = &g_184;
                int32_t ** const l_280[3] = {&g_98,&g_98,&g_98};
                int8_t *l_283 = &g_284;
                int i;
                (*l_154) = ((safe_unary_minus_func_int64_t_s(0x877D17E8B598ADC6LL)) , (((**g_126) ^= ((!((l_258 != l_260) <= 0L)) , ((safe_rshift_func_uint8_t_u_u(((((p_55 >= (safe_div_func_uint64_t_u_u((((&g_183 == (l_268 = (((((l_265 , (safe_add_func_int32_t_s_s((-1L), p_55))) == (*g_98)) && g_94) , p_55) , (void*)0))) >= g_68[6][5]) | (*l_154)), p_55))) , (void*)0) == l_269) & p_55), 3)) || p_55))) == 1L));
                (*g_98) = l_265;
                g_118 &= (safe_mul_func_uint8_t_u_u(((safe_rshift_func_uint16_t_u_s((safe_add_func_uint16_t_u_u(g_240, ((****l_198) ^= p_55))), (safe_mod_func_int16_t_s_s(2L, (safe_rshift_func_int8_t_s_s((&l_224 == l_280[2]), 1)))))) | (l_221[3][4] = ((*l_154) = (safe_rshift_func_uint8_t_u_s(0xBBL, (g_285 = ((*l_283) = 0x72L))))))), (((((*l_269) != (g_146 , (void*)0)) & 0x20L) == 0x21L) || p_55)));
            }
            if (((safe_rshift_func_int8_t_s_u(p_55, (*l_154))) , (safe_mul_func_int16_t_s_s((-5L), ((safe_mul_func_uint16_t_u_u((safe_sub_func_uint64_t_u_u((safe_mod_func_uint64_t_u_u(p_55, 0x04531A60633FDE38LL)), (((((*l_224) = 0L) && 0x32D8AEBAL) , l_296) == (safe_lshift_func_uint16_t_u_u((((safe_div_func_uint64_t_u_u((safe_mul_func_uint8_t_u_u(p_55, 0L)), 1UL)) , p_55) > p_55), 10))))), p_55)) || 1L)))))
            { /* block id: 96 */
                uint16_t l_306 = 65527UL;
                (*l_224) = (((((safe_unary_minus_func_uint16_t_u((p_55 ^ p_55))) || 5UL) , (g_106 & (safe_mod_func_uint32_t_u_u((*l_154), 0x9536F953L)))) <= (l_306 > (((safe_sub_func_int64_t_s_s((safe_add_func_int16_t_s_s((**g_185), ((((safe_div_func_uint32_t_u_u(((l_154 == (void*)0) | 0xC7B8L), 4294967287UL)) <= 0L) >= (*l_154)) != p_55))), p_55)) ^ 0x4D9A3FAEL) <= (*l_154)))) <= l_221[5][3]);
            }
            else
            { /* block id: 98 */
                int32_t **l_313 = &g_98;
                int32_t *l_314 = &l_221[3][4];
                int32_t *l_315 = &g_240;
                int32_t *l_316 = (void*)0;
                int32_t *l_317 = &g_240;
                int32_t *l_318 = &g_118;
                int32_t *l_320 = &l_319[2][1][0];
                int32_t *l_321[7] = {&l_255,&l_255,&l_255,&l_255,&l_255,&l_255,&l_255};
                int i;
                (*l_313) = &g_68[2][0];
                l_324--;
            }
        }
        else
        { /* block id: 102 */
            int64_t l_342 = 0L;
            int32_t l_353 = 0x541A2C39L;
            int32_t *l_360[6];
            int i;
            for (i = 0; i < 6; i++)
                l_360[i] = &l_322;
            if ((&g_259 == &g_259))
            { /* block id: 103 */
                int32_t **l_327 = &g_98;
                uint16_t *l_331[3][9][8] = {{{&g_43,&g_94,(void*)0,&g_94,&g_43,&g_94,&g_43,&g_43},{&g_94,&g_43,(void*)0,&g_43,(void*)0,&g_43,&g_43,(void*)0},{&g_43,&g_94,&g_94,&g_43,&g_94,&g_94,(void*)0,&g_94},{&g_94,&g_94,&g_43,&g_43,&g_94,&g_43,&g_43,&g_43},{&g_94,&g_94,&g_43,&g_94,&g_94,&g_94,&g_43,&g_43},{&g_43,&g_94,&g_94,(void*)0,&g_43,&g_43,(void*)0,&g_43},{&g_94,&g_43,&g_43,&g_94,&g_43,&g_94,&g_43,&g_94},{&g_43,&g_94,&g_43,&g_94,&g_43,&g_94,&g_94,&g_94},{(void*)0,&g_43,(void*)0,&g_94,(void*)0,&g_94,&g_94,&g_94}},{{&g_94,&g_94,(void*)0,&g_43,&g_94,&g_43,&g_94,&g_43},{(void*)0,(void*)0,&g_43,&g_94,&g_43,&g_94,&g_43,&g_94},{&g_94,&g_94,&g_43,(void*)0,(void*)0,&g_43,(void*)0,(void*)0},{&g_94,&g_43,&g_94,&g_94,&g_43,&g_94,&g_43,&g_94},{&g_94,(void*)0,&g_43,&g_94,&g_94,&g_43,&g_43,&g_43},{&g_43,&g_43,(void*)0,&g_94,&g_43,&g_94,&g_94,&g_43},{&g_94,&g_43,&g_43,&g_43,&g_94,&g_43,(void*)0,&g_43},{(void*)0,&g_43,&g_43,&g_94,&g_94,&g_43,&g_94,&g_94},{&g_94,&g_94,&g_43,&g_94,&g_43,&g_94,&g_94,&g_43}},{{&g_94,&g_94,&g_43,(void*)0,&g_43,&g_94,(void*)0,&g_94},{&g_94,&g_94,&g_43,(void*)0,&g_43,&g_94,&g_43,&g_94},{&g_94,&g_43,&g_94,&g_94,&g_43,&g_43,&g_43,&g_94},{&g_94,&g_94,&g_94,&g_43,&g_94,&g_94,&g_43,&g_94},{(void*)0,(void*)0,&g_94,&g_94,&g_94,&g_94,(void*)0,(void*)0},{&g_94,&g_94,&g_94,&g_94,&g_43,&g_94,&g_43,&g_94},{&g_43,&g_94,&g_94,(void*)0,&g_94,&g_94,&g_43,&g_43},{&g_43,&g_94,(void*)0,&g_94,(void*)0,&g_94,&g_94,&g_94},{&g_43,(void*)0,&g_94,&g_43,&g_43,&g_94,&g_94,&g_43}}};
                int64_t *l_338 = (void*)0;
                int64_t *l_339[3][2];
                int16_t ***l_344 = (void*)0;
                uint32_t *l_345 = &g_238[3].f1;
                int32_t *l_346 = &l_319[2][1][0];
                int i, j, k;
                for (i = 0; i < 3; i++)
                {
                    for (j = 0; j < 2; j++)
                        l_339[i][j] = &g_340[1];
                }
                (*l_327) = &g_68[2][4];
                (*l_346) |= (g_240 = (((safe_sub_func_int64_t_s_s((~((**l_327) = (**l_327))), (safe_rshift_func_int8_t_s_u(((((*l_345) = (((safe_mod_func_int32_t_s_s((((safe_sub_func_int8_t_s_s(p_55, ((g_340[7] = g_82.f0) && ((safe_unary_minus_func_uint64_t_u((l_342 || l_343))) <= 0x7CD6L)))) , (*g_183)) == l_344), ((-1L) || g_284))) , p_55) | g_65[0][0][1])) >= 0UL) != p_55), 7)))) <= p_55) ^ 0x4A63CADAEC626977LL));
            }
            else
            { /* block id: 110 */
                int32_t **l_347 = &g_98;
                int32_t *l_352[6][8] = {{(void*)0,&g_86,&g_86,(void*)0,&g_86,&g_86,(void*)0,&g_86},{(void*)0,(void*)0,&g_86,(void*)0,(void*)0,&g_86,(void*)0,(void*)0},{&g_86,(void*)0,&g_86,&g_86,(void*)0,&g_86,&g_86,(void*)0},{(void*)0,&g_86,&g_86,(void*)0,&g_86,&g_86,(void*)0,&g_86},{(void*)0,(void*)0,&g_86,(void*)0,(void*)0,&g_86,(void*)0,(void*)0},{&g_86,(void*)0,&g_86,&g_86,(void*)0,&g_86,&g_86,(void*)0}};
                uint16_t *l_354 = &g_94;
                uint32_t *l_357 = &g_82.f1;
                int32_t l_358 = 0x40834887L;
                int i, j;
                (*l_347) = &l_322;
                l_358 |= ((((*l_357) = (((((safe_mul_func_int16_t_s_s(((*l_224) || (safe_add_func_uint32_t_u_u(((void*)0 != &l_191), ((l_353 = (*l_154)) , 4294967295UL)))), ((((((((****g_183) || ((*l_354)++)) , (&g_183 != (void*)0)) , (**l_347)) != g_146) , (void*)0) != l_258) >= l_342))) , 0xCAD5DE5BL) > (*l_154)) == (*g_105)) , 4294967294UL)) | p_55) , 0x215FED92L);
            }
            (*l_154) = (~0xCDC4L);
            --l_362;
            for (g_241 = 0; (g_241 < 35); ++g_241)
            { /* block id: 121 */
                return l_151;
            }
        }
        for (l_362 = 0; (l_362 <= 0); l_362 += 1)
        { /* block id: 127 */
            int8_t *l_368 = &g_284;
            int32_t *l_385[2][4] = {{&l_319[1][0][0],&l_319[1][0][0],&l_319[1][0][0],&l_319[1][0][0]},{&l_319[1][0][0],&l_319[1][0][0],&l_319[1][0][0],&l_319[1][0][0]}};
            uint8_t *l_443[9][5][5];
            int i, j, k;
            for (i = 0; i < 9; i++)
            {
                for (j = 0; j < 5; j++)
                {
                    for (k = 0; k < 5; k++)
                        l_443[i][j][k] = (void*)0;
                }
            }
            if ((g_240 = (~(((l_368 != l_258) >= 255UL) >= ((g_340[(l_362 + 7)] == g_340[(l_362 + 4)]) | ((--(*l_258)) , (safe_rshift_func_uint8_t_u_u((((~(safe_mod_func_uint8_t_u_u((0UL >= (~((safe_lshift_func_int8_t_s_u(((safe_sub_func_int32_t_s_s(l_381, 0xC62E58FCL)) < (safe_mod_func_int16_t_s_s(((((*l_154) = ((****l_191) &= ((*g_126) == (void*)0))) == p_55) || g_340[(l_362 + 4)]), p_55))), 7)) > l_384))), 0x40L))) <= 1L) <= 18446744073709551615UL), 5))))))))
            { /* block id: 132 */
                uint32_t l_396 = 4294967287UL;
                int16_t *l_408 = (void*)0;
                int16_t *l_409 = &g_285;
                int64_t *l_410 = &g_340[(l_362 + 7)];
                int32_t l_411[2];
                int i;
                for (i = 0; i < 2; i++)
                    l_411[i] = (-1L);
                l_411[1] = (((*g_105) & ((*l_224) = ((safe_rshift_func_int8_t_s_s((*l_224), (safe_sub_func_int32_t_s_s(((safe_rshift_func_uint16_t_u_s((safe_mul_func_int8_t_s_s(((p_55 && (((*l_410) = (safe_mul_func_uint16_t_u_u((((((p_55 == l_396) <= g_259) , (safe_div_func_int8_t_s_s((((((!(safe_sub_func_uint8_t_u_u((((*l_409) ^= (safe_sub_func_int8_t_s_s((safe_sub_func_int16_t_s_s(0xABE8L, ((((0x54095CB5B313F41BLL ^ (safe_add_func_uint8_t_u_u((((0x263FL | 1UL) & 0x7FD2L) || 1UL), p_55))) <= 0xB5L) <= (-1L)) & p_55))), 255UL))) ^ (**g_185)), p_55))) >= 1UL) | (-1L)) != 1UL) >= g_241), 0x07L))) | (*l_154)) & p_55), (-7L)))) >= 0xBBF65C5097597BC2LL)) > 0UL), (*l_224))), (*l_154))) & 0xD8C6B1F425F754BELL), (*g_98))))) <= 65535UL))) == l_396);
            }
            else
            { /* block id: 137 */
                int32_t **l_412[10] = {(void*)0,(void*)0,(void*)0,(void*)0,(void*)0,(void*)0,(void*)0,(void*)0,(void*)0,(void*)0};
                int i;
                l_154 = &g_118;
                (*l_154) = 0x0A2FDD5AL;
            }
            for (l_322 = 0; (l_322 >= 0); l_322 -= 1)
            { /* block id: 143 */
                int64_t *l_420 = &g_340[8];
                int64_t *l_421[10] = {&l_384,&l_384,&l_384,&l_384,&l_384,&l_384,&l_384,&l_384,&l_384,&l_384};
                uint8_t *l_428 = &l_173;
                const int32_t l_439 = 0x73F22926L;
                int32_t l_440 = 0xFA31F7A6L;
                uint16_t *l_445 = &l_381;
                int i;
                (*l_154) = (safe_mod_func_int16_t_s_s((-3L), (*l_224)));
                (*l_224) = ((safe_lshift_func_int16_t_s_s((~(g_422 = ((*l_420) = ((safe_rshift_func_int8_t_s_u((g_68[3][1] , 0L), 1)) , 0xF3C083DE8FA77FB3LL)))), ((safe_lshift_func_uint16_t_u_s((!(((*l_258)--) < (++(*l_428)))), 2)) & (safe_rshift_func_uint16_t_u_s(((*l_445) = ((p_55 && (p_55 ^ (((safe_div_func_uint64_t_u_u((l_440 = (safe_lshift_func_int8_t_s_u((safe_lshift_func_uint16_t_u_s(l_439, 11)), 6))), p_55)) || (safe_div_func_uint16_t_u_u(((l_443[8][2][3] = l_368) == g_444), p_55))) & p_55))) < (*l_224))), 8))))) & 0xCEL);
            }
        }
        for (l_324 = 0; (l_324 <= 4); l_324 += 1)
        { /* block id: 157 */
            uint32_t l_463 = 0x41909278L;
            for (g_118 = 0; (g_118 <= 0); g_118 += 1)
            { /* block id: 160 */
                int32_t *l_453 = &l_319[4][0][0];
                int i, j;
                l_454 = ((*l_453) |= ((*g_98) = (0x7C5767386948D2B1LL < ((+((*l_154) && p_55)) <= (g_340[(g_118 + 6)] &= (safe_add_func_int8_t_s_s(p_55, (0xC7CDL || ((((safe_mul_func_uint8_t_u_u(((((safe_rshift_func_int16_t_s_u(((g_140[(g_118 + 1)][g_118] = 0xFBBC6955CDB52F41LL) || ((0x02A4L & (g_244 , (***g_184))) ^ 0x08E04821554C7FEDLL)), (*l_224))) | p_55) , &g_244) == &g_244), 0xF5L)) , (**l_191)) == (**l_198)) > g_241)))))))));
                return &g_43;
            }
            for (g_244 = 0; (g_244 <= 4); g_244 += 1)
            { /* block id: 170 */
                int32_t *l_455 = &l_454;
                int32_t *l_456 = (void*)0;
                int32_t *l_457 = &l_361;
                int32_t *l_458 = &l_322;
                int32_t *l_459 = &g_118;
                int32_t *l_460 = &g_118;
                int32_t *l_461 = (void*)0;
                int32_t *l_462[7] = {(void*)0,(void*)0,(void*)0,(void*)0,(void*)0,(void*)0,(void*)0};
                union U0 **l_478 = (void*)0;
                union U0 *l_480[8][3][3];
                union U0 **l_479 = &l_480[4][1][0];
                int i, j, k;
                for (i = 0; i < 8; i++)
                {
                    for (j = 0; j < 3; j++)
                    {
                        for (k = 0; k < 3; k++)
                            l_480[i][j][k] = &g_238[l_324];
                    }
                }
                l_463--;
                (*l_455) = ((((~(safe_add_func_uint64_t_u_u((l_471 >= ((*l_154) = ((void*)0 != &g_140[0][0]))), (0x42BAL <= (((safe_div_func_uint32_t_u_u((((-7L) >= ((((((((safe_lshift_func_uint8_t_u_u((g_422 & ((l_319[3][1][0] = (p_55 , ((((***g_125) ^= (p_55 , (safe_add_func_uint16_t_u_u(0x2803L, l_463)))) || 1L) > 1UL))) != p_55)), 4)) , (**g_184)) == (**g_125)) , g_43) == p_55) | g_94) == g_94) < l_463)) | p_55), p_55)) , 0xE9L) >= p_55))))) , p_55) != 0x34715543D0BE9620LL) >= g_94);
                (*l_479) = &g_238[l_324];
            }
        }
    }
    return &g_94;
}


/* ------------------------------------------ */
/* 
 * reads : g_43 g_82 g_94 g_5 g_68 g_82.f0 g_105 g_106 g_65 g_118 g_125 g_140 g_98
 * writes: g_86 g_94 g_68 g_98 g_105 g_106 g_118 g_125 g_140
 */
static const uint16_t  func_61(uint8_t  p_62)
{ /* block id: 3 */
    int32_t *l_67[4][8] = {{&g_68[6][5],&g_68[4][4],&g_68[4][0],&g_68[4][4],&g_68[6][5],&g_68[2][4],&g_68[6][5],&g_68[4][4]},{&g_68[6][5],&g_68[4][4],&g_68[6][5],&g_68[5][1],&g_68[6][5],&g_68[5][1],&g_68[6][5],&g_68[4][4]},{&g_68[6][5],&g_68[5][1],&g_68[6][5],&g_68[4][4],&g_68[6][5],&g_68[5][1],&g_68[6][5],&g_68[5][1]},{&g_68[6][5],&g_68[4][4],&g_68[4][0],&g_68[4][4],&g_68[6][5],&g_68[2][4],&g_68[6][5],&g_68[4][4]}};
    int16_t l_69 = 0x0059L;
    int16_t l_70 = 0x8D5DL;
    uint32_t l_71 = 0xD9A1771DL;
    int16_t *l_85[10] = {&l_69,&l_69,&l_69,&l_69,&l_69,&l_69,&l_69,&l_69,&l_69,&l_69};
    int32_t **l_91 = &l_67[0][6];
    int32_t *l_92 = &g_68[6][1];
    uint16_t *l_93 = &g_94;
    int64_t l_95 = 0xE8948E2C0BE236C4LL;
    int i, j;
    --l_71;
    g_68[1][4] = ((safe_mod_func_int32_t_s_s(g_43, func_76((safe_lshift_func_uint8_t_u_u((g_82 , (safe_lshift_func_int16_t_s_u((g_86 = p_62), (safe_lshift_func_uint8_t_u_u(((safe_div_func_int16_t_s_s(((&g_68[1][1] == (l_92 = ((*l_91) = &g_68[6][5]))) != (((*l_93) |= p_62) && g_5)), l_95)) || g_68[6][5]), 3))))), p_62)), l_93, g_82.f0))) ^ p_62);
    return g_68[1][2];
}


/* ------------------------------------------ */
/* 
 * reads : g_68 g_105 g_106 g_65 g_5 g_118 g_94 g_125 g_140 g_82.f0 g_98
 * writes: g_94 g_68 g_98 g_105 g_106 g_118 g_125 g_140
 */
static int32_t  func_76(int32_t  p_77, uint16_t * p_78, int32_t  p_79)
{ /* block id: 9 */
    int32_t *l_96 = &g_68[0][1];
    int32_t **l_97 = (void*)0;
    int32_t **l_99 = &l_96;
    union U0 l_114 = {0UL};
    int32_t l_121[3][8][5] = {{{0L,(-1L),0L,0xE27A7769L,0xE27A7769L},{0L,(-1L),0L,0xE27A7769L,0xE27A7769L},{0L,(-1L),0L,0xE27A7769L,0xE27A7769L},{0L,(-1L),0L,0xE27A7769L,0xE27A7769L},{0L,(-1L),0L,0xE27A7769L,0xE27A7769L},{0L,(-1L),0L,0xE27A7769L,0xE27A7769L},{0L,(-1L),0L,0xE27A7769L,0xE27A7769L},{0L,(-1L),0L,0xE27A7769L,0xE27A7769L}},{{0L,(-1L),0L,0xE27A7769L,0xE27A7769L},{0L,(-1L),0L,0xE27A7769L,0xE27A7769L},{0L,(-1L),0L,0xE27A7769L,0xE27A7769L},{0L,(-1L),0L,0xE27A7769L,0xE27A7769L},{0L,(-1L),0L,0xE27A7769L,0xE27A7769L},{0L,(-1L),0L,0xE27A7769L,0xE27A7769L},{0L,(-1L),0L,0xE27A7769L,0xE27A7769L},{0L,(-1L),0L,0xE27A7769L,0xE27A7769L}},{{0L,(-1L),0L,0xE27A7769L,0xE27A7769L},{0L,(-1L),0L,0xE27A7769L,0xE27A7769L},{0L,(-1L),0L,0xE27A7769L,0xE27A7769L},{0L,(-1L),0L,0xE27A7769L,0xE27A7769L},{0L,(-1L),0L,0xE27A7769L,0xE27A7769L},{0L,(-1L),0L,0xE27A7769L,0xE27A7769L},{0L,(-1L),0L,0xE27A7769L,0xE27A7769L},{0L,(-1L),0L,0xE27A7769L,0xE27A7769L}}};
    int16_t *l_135 = &g_106;
    const int32_t *l_147 = &g_118;
    int i, j, k;
    for (p_77 = 0; p_77 < 7; p_77 += 1)
    {
        for (g_94 = 0; g_94 < 6; g_94 += 1)
        {
            g_68[p_77][g_94] = (-1L);
        }
    }
lbl_119:
    (*l_99) = (g_98 = l_96);
    for (p_79 = 4; (p_79 >= 0); p_79 -= 1)
    { /* block id: 15 */
        const uint16_t *l_102 = (void*)0;
        int16_t **l_107 = &g_105;
        int32_t l_115 = (-3L);
        int16_t *l_116 = &g_106;
        int32_t *l_117 = &g_118;
        int32_t *l_120[4];
        uint64_t l_122 = 0x912BBB44E860B7F1LL;
        int i;
        for (i = 0; i < 4; i++)
            l_120[i] = &l_115;
        (**l_99) = ((*l_117) ^= ((*l_96) <= (((safe_add_func_int16_t_s_s(((*l_116) = ((0x5C42L == (l_102 == &g_94)) > (safe_mod_func_int16_t_s_s(((((*l_107) = g_105) != p_78) , (((*g_105) && (safe_mod_func_uint8_t_u_u((safe_mod_func_int32_t_s_s((safe_mod_func_uint64_t_u_u(g_65[2][0][0], (l_114 , p_77))), 0x83B512B1L)), p_79))) != l_115)), g_5)))), l_115)) != (**l_99)) , 0xFACDBCB6AF0722DCLL)));
        if (l_114.f0)
            goto lbl_119;
        --l_122;
        for (g_94 = 0; (g_94 <= 0); g_94 += 1)
        { /* block id: 24 */
            int i, j;
            (*l_117) |= g_68[(p_79 + 2)][g_94];
            for (g_118 = 0; (g_118 >= 0); g_118 -= 1)
            { /* block id: 28 */
                int16_t ** const **l_127 = &g_125;
                (*l_127) = g_125;
            }
            for (l_122 = 0; (l_122 <= 0); l_122 += 1)
            { /* block id: 33 */
                int16_t ***l_136 = &l_107;
                uint64_t *l_137 = (void*)0;
                uint64_t *l_138 = (void*)0;
                uint64_t *l_139 = &g_140[2][0];
                int i, j, k;
                (*l_96) = (safe_lshift_func_int16_t_s_u(((safe_unary_minus_func_int8_t_s((safe_add_func_uint8_t_u_u((safe_sub_func_int32_t_s_s(0x76F44E09L, 0xC799408CL)), (((((((void*)0 != l_135) <= (-1L)) & g_65[(g_94 + 1)][l_122][g_94]) != (((((((void*)0 != l_136) | ((*l_139) &= g_65[l_122][g_94][l_122])) && (*p_78)) == p_77) <= g_82.f0) >= 0xF48CL)) & g_68[(p_79 + 2)][g_94]) > g_68[6][5]))))) || (*g_98)), 3));
                return (*g_98);
            }
        }
    }
    for (p_79 = 18; (p_79 > 11); p_79 = safe_sub_func_int16_t_s_s(p_79, 8))
    { /* block id: 42 */
        const int32_t **l_143 = (void*)0;
        const int32_t *l_145[10] = {&g_146,&g_146,&g_146,&g_146,&g_146,&g_146,&g_146,&g_146,&g_146,&g_146};
        const int32_t **l_144 = &l_145[2];
        int i;
        l_147 = ((*l_144) = &g_68[6][5]);
    }
    return p_77;
}




/* ---------------------------------------- */
int main (int argc, char* argv[])
{
    int i, j, k;
    int print_hash_value = 0;
    if (argc == 2 && strcmp(argv[1], "1") == 0) print_hash_value = 1;
    platform_main_begin();
    crc32_gentab();
    func_1();
    transparent_crc(g_5, "g_5", print_hash_value);
    transparent_crc(g_43, "g_43", print_hash_value);
    for (i = 0; i < 3; i++)
    {
        for (j = 0; j < 1; j++)
        {
            for (k = 0; k < 2; k++)
            {
                transparent_crc(g_65[i][j][k], "g_65[i][j][k]", print_hash_value);
                if (print_hash_value) printf("index = [%d][%d][%d]\n", i, j, k);

            }
        }
    }
    for (i = 0; i < 7; i++)
    {
        for (j = 0; j < 6; j++)
        {
            transparent_crc(g_68[i][j], "g_68[i][j]", print_hash_value);
            if (print_hash_value) printf("index = [%d][%d]\n", i, j);

        }
    }
    transparent_crc(g_82.f0, "g_82.f0", print_hash_value);
    transparent_crc(g_86, "g_86", print_hash_value);
    transparent_crc(g_94, "g_94", print_hash_value);
    transparent_crc(g_106, "g_106", print_hash_value);
    transparent_crc(g_118, "g_118", print_hash_value);
    for (i = 0; i < 3; i++)
    {
        for (j = 0; j < 1; j++)
        {
            transparent_crc(g_140[i][j], "g_140[i][j]", print_hash_value);
            if (print_hash_value) printf("index = [%d][%d]\n", i, j);

        }
    }
    transparent_crc(g_146, "g_146", print_hash_value);
    for (i = 0; i < 5; i++)
    {
        transparent_crc(g_238[i].f0, "g_238[i].f0", print_hash_value);
        if (print_hash_value) printf("index = [%d]\n", i);

    }
    transparent_crc(g_240, "g_240", print_hash_value);
    transparent_crc(g_241, "g_241", print_hash_value);
    transparent_crc(g_244, "g_244", print_hash_value);
    transparent_crc(g_259, "g_259", print_hash_value);
    transparent_crc(g_284, "g_284", print_hash_value);
    transparent_crc(g_285, "g_285", print_hash_value);
    for (i = 0; i < 10; i++)
    {
        transparent_crc(g_340[i], "g_340[i]", print_hash_value);
        if (print_hash_value) printf("index = [%d]\n", i);

    }
    transparent_crc(g_422, "g_422", print_hash_value);
    transparent_crc(g_483, "g_483", print_hash_value);
    transparent_crc(g_493, "g_493", print_hash_value);
    transparent_crc(g_534, "g_534", print_hash_value);
    transparent_crc(g_591, "g_591", print_hash_value);
    for (i = 0; i < 8; i++)
    {
        transparent_crc(g_613[i], "g_613[i]", print_hash_value);
        if (print_hash_value) printf("index = [%d]\n", i);

    }
    transparent_crc(g_689, "g_689", print_hash_value);
    transparent_crc(g_742, "g_742", print_hash_value);
    for (i = 0; i < 5; i++)
    {
        transparent_crc(g_796[i], "g_796[i]", print_hash_value);
        if (print_hash_value) printf("index = [%d]\n", i);

    }
    for (i = 0; i < 9; i++)
    {
        for (j = 0; j < 7; j++)
        {
            for (k = 0; k < 4; k++)
            {
                transparent_crc(g_803[i][j][k], "g_803[i][j][k]", print_hash_value);
                if (print_hash_value) printf("index = [%d][%d][%d]\n", i, j, k);

            }
        }
    }
    transparent_crc(g_853, "g_853", print_hash_value);
    transparent_crc(g_981, "g_981", print_hash_value);
    for (i = 0; i < 6; i++)
    {
        transparent_crc(g_1001[i], "g_1001[i]", print_hash_value);
        if (print_hash_value) printf("index = [%d]\n", i);

    }
    platform_main_end(crc32_context ^ 0xFFFFFFFFUL, print_hash_value);
    return 0;
}

/************************ statistics *************************
XXX max struct depth: 0
breakdown:
   depth: 0, occurrence: 237
XXX total union variables: 10

XXX non-zero bitfields defined in structs: 1
XXX zero bitfields defined in structs: 0
XXX const bitfields defined in structs: 0
XXX volatile bitfields defined in structs: 0
XXX structs with bitfields in the program: 17
breakdown:
   indirect level: 0, occurrence: 10
   indirect level: 1, occurrence: 0
   indirect level: 2, occurrence: 6
   indirect level: 3, occurrence: 0
   indirect level: 4, occurrence: 1
XXX full-bitfields structs in the program: 0
breakdown:
XXX times a bitfields struct's address is taken: 4
XXX times a bitfields struct on LHS: 1
XXX times a bitfields struct on RHS: 14
XXX times a single bitfield on LHS: 0
XXX times a single bitfield on RHS: 20

XXX max expression depth: 42
breakdown:
   depth: 1, occurrence: 101
   depth: 2, occurrence: 33
   depth: 3, occurrence: 1
   depth: 4, occurrence: 1
   depth: 14, occurrence: 2
   depth: 17, occurrence: 2
   depth: 18, occurrence: 2
   depth: 19, occurrence: 4
   depth: 20, occurrence: 2
   depth: 21, occurrence: 3
   depth: 22, occurrence: 1
   depth: 23, occurrence: 2
   depth: 24, occurrence: 2
   depth: 27, occurrence: 1
   depth: 29, occurrence: 1
   depth: 31, occurrence: 1
   depth: 34, occurrence: 1
   depth: 37, occurrence: 1
   depth: 38, occurrence: 1
   depth: 42, occurrence: 1

XXX total number of pointers: 200

XXX times a variable address is taken: 458
XXX times a pointer is dereferenced on RHS: 130
breakdown:
   depth: 1, occurrence: 95
   depth: 2, occurrence: 22
   depth: 3, occurrence: 10
   depth: 4, occurrence: 3
XXX times a pointer is dereferenced on LHS: 141
breakdown:
   depth: 1, occurrence: 129
   depth: 2, occurrence: 8
   depth: 3, occurrence: 2
   depth: 4, occurrence: 2
XXX times a pointer is compared with null: 26
XXX times a pointer is compared with address of another variable: 7
XXX times a pointer is compared with another pointer: 7
XXX times a pointer is qualified to be dereferenced: 2536

XXX max dereference level: 5
breakdown:
   level: 0, occurrence: 0
   level: 1, occurrence: 692
   level: 2, occurrence: 92
   level: 3, occurrence: 47
   level: 4, occurrence: 33
   level: 5, occurrence: 9
XXX number of pointers point to pointers: 76
XXX number of pointers point to scalars: 121
XXX number of pointers point to structs: 0
XXX percent of pointers has null in alias set: 28
XXX average alias set size: 1.49

XXX times a non-volatile is read: 909
XXX times a non-volatile is write: 441
XXX times a volatile is read: 0
XXX    times read thru a pointer: 0
XXX times a volatile is write: 0
XXX    times written thru a pointer: 0
XXX times a volatile is available for access: 0
XXX percentage of non-volatile access: 100

XXX forward jumps: 0
XXX backward jumps: 3

XXX stmts: 109
XXX max block depth: 3
breakdown:
   depth: 0, occurrence: 18
   depth: 1, occurrence: 18
   depth: 2, occurrence: 29
   depth: 3, occurrence: 44

XXX percentage a fresh-made variable is used: 16.3
XXX percentage an existing variable is used: 83.7
FYI: the random generator makes assumptions about the integer size. See platform.info for more details.
********************* end of statistics **********************/

