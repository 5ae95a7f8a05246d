# bash completion for attention-explorer                                     -*- shell-script -*-
#
# The option names come from the program's own --help (read once per shell, as
# bash-completion's _longopt does), so they cannot go stale; the values of the options that
# take a fixed set of words are listed here and checked by tests/package/check_completion.sh.

_attention_explorer()
{
    local cur prev
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD-1]}
    # --option=value: complete the value.
    if [[ $cur == --*=* ]]; then
        prev=${cur%%=*}
        cur=${cur#*=}
    fi

    local words=""
    case $prev in
        --mode) words="dot scaled additive hard bilinear cosine" ;;
        --normalize) words="softmax hard relu sparsemax none" ;;
        --fill) words="-inf -9e15" ;;
        --embedding) words="hashed onehot table wordvectors" ;;
        --positional) words="none sinusoidal table" ;;
        --backend) words="auto cpu vulkan" ;;
        --colormap) words="viridis cividis magma gray" ;;
        --view) words="head:1 head:mean heads pipeline:1 difference:1 lines:1 train gradient kernel positions embedding-space grid rollout predictions importance logit-lens patching attribution" ;;
        --compare) words="dot scaled additive hard bilinear cosine mask:causal mask:no-causal normalization:softmax normalization:relu normalization:sparsemax normalization:none embedding:onehot embedding:hashed embedding:table embedding:wordvectors positions:none positions:sinusoidal" ;;
        --stage) words="input Q K V scores scaled-scores masked-scores weights head-output concat output" ;;
        --latex) words="table pgfplots" ;;
        --color-scale) words="fixed data" ;;
        --theme) words="light dark" ;;
        --train) words="copy previous-token reverse translation key-value" ;;
        --hard-gradient) words="zero straight-through relaxed" ;;
        --seq2seq-train) words="dates reverse copy sort english-french tagging classification" ;;
        --seq2seq-attention) words="bahdanau none dot general concat hard" ;;
        --seq2seq-cell) words="gru lstm" ;;
        --seq2seq-layers) words="1 2" ;;
        --seq2seq-pooling) words="mean first last" ;;
        --download) words="openai-community/gpt2 distilbert/distilgpt2 google-bert/bert-base-uncased distilbert/distilbert-base-uncased HuggingFaceTB/SmolLM2-135M Qwen/Qwen2.5-0.5B TinyLlama/TinyLlama-1.1B-Chat-v1.0 EleutherAI/pythia-70m Helsinki-NLP/opus-mt-en-fr google-t5/t5-small" ;;
        --scene)
            _attention_explorer_files '@(attention.json|json)'
            return ;;
        --word-vectors)
            _attention_explorer_files '@(txt|vec)'
            return ;;
        --export)
            _attention_explorer_files '@(png|svg|pdf)'
            return ;;
        --export-presentation)
            _attention_explorer_files pdf
            return ;;
        --dump)
            _attention_explorer_files json
            return ;;
        --export-matrix)
            _attention_explorer_files '@(csv|npy|json|tex)'
            return ;;
        --export-all | --model | --seq2seq | --save)
            COMPREPLY=($(compgen -d -- "$cur"))
            compopt -o filenames 2>/dev/null
            return ;;
        --text | --source | --temperature | --heads | --d-model | --d-k | --window | --padding-token | \
            --seed | --vk-device | --width | --height | --dpi | --layer | --heads-off | --edit-layer | --top-k | \
            --query | --beam | --steps | --generate | --top-p | --repetition-penalty | --stop | \
            --clean | --corrupt | --metric | --pairs-max-words)
            return ;; # free values: nothing to offer
    esac
    if [[ -n $words ]]; then
        # The values start with '-' for --fill: "--" keeps compgen from reading them as options.
        COMPREPLY=($(compgen -W "$words" -- "$cur"))
        return
    fi

    if [[ $cur == -* ]]; then
        if [[ -z ${_attention_explorer_options-} ]]; then
            _attention_explorer_options=$(QT_QPA_PLATFORM=offscreen "$1" --help 2>/dev/null |
                grep -oE -- '--[a-z0-9][a-z0-9-]*' | sort -u | tr '\n' ' ')
        fi
        COMPREPLY=($(compgen -W "$_attention_explorer_options" -- "$cur"))
        return
    fi
    _attention_explorer_files '@(attention.json|json)'
}

# Files with the given extensions (an extglob pattern), and folders to walk into.
_attention_explorer_files()
{
    local cur=${cur:-${COMP_WORDS[COMP_CWORD]}}
    local IFS=$'\n'
    local old_extglob
    old_extglob=$(shopt -p extglob)
    shopt -s extglob
    COMPREPLY=($(compgen -f -X "!*.$1" -- "$cur") $(compgen -d -- "$cur"))
    eval "$old_extglob"
    compopt -o filenames 2>/dev/null
}

complete -F _attention_explorer attention-explorer
