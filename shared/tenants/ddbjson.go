package tenants

import (
	"encoding/base64"
	"encoding/json"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// DynamoDB JSON ({"S": "x"}, {"N": "1"}, {"M": {...}}, ...): how an archive keeps items, so every
// type (numbers as written, sets, binary, null) comes back exactly as it was.

func encodeAV(av types.AttributeValue) (any, error) {
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		return map[string]any{"S": v.Value}, nil
	case *types.AttributeValueMemberN:
		return map[string]any{"N": v.Value}, nil
	case *types.AttributeValueMemberB:
		return map[string]any{"B": base64.StdEncoding.EncodeToString(v.Value)}, nil
	case *types.AttributeValueMemberBOOL:
		return map[string]any{"BOOL": v.Value}, nil
	case *types.AttributeValueMemberNULL:
		return map[string]any{"NULL": true}, nil
	case *types.AttributeValueMemberSS:
		return map[string]any{"SS": v.Value}, nil
	case *types.AttributeValueMemberNS:
		return map[string]any{"NS": v.Value}, nil
	case *types.AttributeValueMemberBS:
		out := make([]string, len(v.Value))
		for i, b := range v.Value {
			out[i] = base64.StdEncoding.EncodeToString(b)
		}
		return map[string]any{"BS": out}, nil
	case *types.AttributeValueMemberL:
		out := make([]any, len(v.Value))
		for i, e := range v.Value {
			enc, err := encodeAV(e)
			if err != nil {
				return nil, err
			}
			out[i] = enc
		}
		return map[string]any{"L": out}, nil
	case *types.AttributeValueMemberM:
		m, err := encodeItem(v.Value)
		if err != nil {
			return nil, err
		}
		return map[string]any{"M": m}, nil
	}
	return nil, fmt.Errorf("tenants: attribute of unknown type %T", av)
}

func encodeItem(item map[string]types.AttributeValue) (map[string]any, error) {
	out := make(map[string]any, len(item))
	for k, v := range item {
		enc, err := encodeAV(v)
		if err != nil {
			return nil, err
		}
		out[k] = enc
	}
	return out, nil
}

// rawAV is one attribute as DynamoDB JSON.
type rawAV struct {
	S    *string                    `json:"S"`
	N    *string                    `json:"N"`
	B    *string                    `json:"B"`
	BOOL *bool                      `json:"BOOL"`
	NULL *bool                      `json:"NULL"`
	SS   []string                   `json:"SS"`
	NS   []string                   `json:"NS"`
	BS   []string                   `json:"BS"`
	L    []json.RawMessage          `json:"L"`
	M    map[string]json.RawMessage `json:"M"`
}

func decodeAV(raw json.RawMessage) (types.AttributeValue, error) {
	var r rawAV
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, err
	}
	switch {
	case r.S != nil:
		return &types.AttributeValueMemberS{Value: *r.S}, nil
	case r.N != nil:
		return &types.AttributeValueMemberN{Value: *r.N}, nil
	case r.B != nil:
		b, err := base64.StdEncoding.DecodeString(*r.B)
		return &types.AttributeValueMemberB{Value: b}, err
	case r.BOOL != nil:
		return &types.AttributeValueMemberBOOL{Value: *r.BOOL}, nil
	case r.NULL != nil:
		return &types.AttributeValueMemberNULL{Value: true}, nil
	case r.SS != nil:
		return &types.AttributeValueMemberSS{Value: r.SS}, nil
	case r.NS != nil:
		return &types.AttributeValueMemberNS{Value: r.NS}, nil
	case r.BS != nil:
		out := make([][]byte, len(r.BS))
		for i, s := range r.BS {
			b, err := base64.StdEncoding.DecodeString(s)
			if err != nil {
				return nil, err
			}
			out[i] = b
		}
		return &types.AttributeValueMemberBS{Value: out}, nil
	case r.L != nil:
		out := make([]types.AttributeValue, len(r.L))
		for i, e := range r.L {
			av, err := decodeAV(e)
			if err != nil {
				return nil, err
			}
			out[i] = av
		}
		return &types.AttributeValueMemberL{Value: out}, nil
	case r.M != nil:
		m, err := decodeItem(r.M)
		return &types.AttributeValueMemberM{Value: m}, err
	}
	return nil, fmt.Errorf("tenants: attribute %s has no type", raw)
}

func decodeItem(m map[string]json.RawMessage) (map[string]types.AttributeValue, error) {
	out := make(map[string]types.AttributeValue, len(m))
	for k, v := range m {
		av, err := decodeAV(v)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", k, err)
		}
		out[k] = av
	}
	return out, nil
}
