/* The front end's inputs from the command line (see frontend_inputs.h). */
#include "analyzer/cli/frontend_inputs.h"

static hms_str_list list_of(const hms_strvec *v)
{
    return (hms_str_list){v->v, v->n};
}

hms_frontend_options hms_frontend_inputs(const hms_options *o, const hms_arch *arch)
{
    return (hms_frontend_options){
        .compiler_args = list_of(&o->compiler_args),
        .build_dir = o->build_dir,
        .assume_filename = o->assume_filename,
        .launches = list_of(&o->launches),
        .params = list_of(&o->params),
        .arch = arch,
    };
}
