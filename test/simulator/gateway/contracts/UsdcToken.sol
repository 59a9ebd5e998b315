// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @title UsdcToken
/// @notice A minimal USDC-like ERC-20 with EIP-3009 for the gateway simulator's local anvil chain.
/// It has the subset of Circle's FiatTokenV2 that the x402 `exact` EVM scheme uses (EIP-712 domain
/// "USD Coin" / "2", authorizationState, transferWithAuthorization with (v,r,s) and with bytes signature),
/// and reverts with FiatTokenV2's messages so the x402 facilitator classifies failures the same way.
/// Test code only: one minter (the deployer), no pausing, no blacklist.
contract UsdcToken {
	string public constant name = "USD Coin";
	string public constant symbol = "USDC";
	string public constant version = "2";
	uint8 public constant decimals = 6;

	bytes32 public constant TRANSFER_WITH_AUTHORIZATION_TYPEHASH =
		keccak256("TransferWithAuthorization(address from,address to,uint256 value,uint256 validAfter,uint256 validBefore,bytes32 nonce)");
	bytes32 public constant RECEIVE_WITH_AUTHORIZATION_TYPEHASH =
		keccak256("ReceiveWithAuthorization(address from,address to,uint256 value,uint256 validAfter,uint256 validBefore,bytes32 nonce)");
	bytes32 public constant CANCEL_AUTHORIZATION_TYPEHASH = keccak256("CancelAuthorization(address authorizer,bytes32 nonce)");
	bytes32 private constant EIP712_DOMAIN_TYPEHASH =
		keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)");
	// Upper bound of a canonical (low-s) secp256k1 signature, as in OpenZeppelin's ECDSA.
	uint256 private constant HALF_CURVE_ORDER = 0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0;
	bytes4 private constant ERC1271_MAGIC_VALUE = 0x1626ba7e;

	address public immutable minter;
	uint256 public totalSupply;
	mapping(address => uint256) public balanceOf;
	mapping(address => mapping(address => uint256)) public allowance;
	mapping(address => mapping(bytes32 => bool)) private _authorizationStates;

	event Transfer(address indexed from, address indexed to, uint256 value);
	event Approval(address indexed owner, address indexed spender, uint256 value);
	event Mint(address indexed minter, address indexed to, uint256 amount);
	event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce);
	event AuthorizationCanceled(address indexed authorizer, bytes32 indexed nonce);

	constructor() {
		minter = msg.sender;
	}

	/// @notice EIP-712 domain separator, computed per call so it follows the chain id.
	function DOMAIN_SEPARATOR() public view returns (bytes32) {
		return keccak256(
			abi.encode(EIP712_DOMAIN_TYPEHASH, keccak256(bytes(name)), keccak256(bytes(version)), block.chainid, address(this))
		);
	}

	function mint(address to, uint256 amount) external returns (bool) {
		require(msg.sender == minter, "FiatToken: caller is not a minter");
		require(to != address(0), "FiatToken: mint to the zero address");
		require(amount > 0, "FiatToken: mint amount not greater than 0");
		totalSupply += amount;
		balanceOf[to] += amount;
		emit Mint(msg.sender, to, amount);
		emit Transfer(address(0), to, amount);
		return true;
	}

	function transfer(address to, uint256 value) external returns (bool) {
		_transfer(msg.sender, to, value);
		return true;
	}

	function approve(address spender, uint256 value) external returns (bool) {
		require(spender != address(0), "ERC20: approve to the zero address");
		allowance[msg.sender][spender] = value;
		emit Approval(msg.sender, spender, value);
		return true;
	}

	function transferFrom(address from, address to, uint256 value) external returns (bool) {
		require(value <= allowance[from][msg.sender], "ERC20: transfer amount exceeds allowance");
		allowance[from][msg.sender] -= value;
		_transfer(from, to, value);
		return true;
	}

	/// @notice Whether a nonce of an authorizer was used or canceled.
	function authorizationState(address authorizer, bytes32 nonce) external view returns (bool) {
		return _authorizationStates[authorizer][nonce];
	}

	function transferWithAuthorization(
		address from,
		address to,
		uint256 value,
		uint256 validAfter,
		uint256 validBefore,
		bytes32 nonce,
		uint8 v,
		bytes32 r,
		bytes32 s
	) external {
		_transferWithAuthorization(from, to, value, validAfter, validBefore, nonce, abi.encodePacked(r, s, v));
	}

	function transferWithAuthorization(
		address from,
		address to,
		uint256 value,
		uint256 validAfter,
		uint256 validBefore,
		bytes32 nonce,
		bytes memory signature
	) external {
		_transferWithAuthorization(from, to, value, validAfter, validBefore, nonce, signature);
	}

	function receiveWithAuthorization(
		address from,
		address to,
		uint256 value,
		uint256 validAfter,
		uint256 validBefore,
		bytes32 nonce,
		uint8 v,
		bytes32 r,
		bytes32 s
	) external {
		_receiveWithAuthorization(from, to, value, validAfter, validBefore, nonce, abi.encodePacked(r, s, v));
	}

	function receiveWithAuthorization(
		address from,
		address to,
		uint256 value,
		uint256 validAfter,
		uint256 validBefore,
		bytes32 nonce,
		bytes memory signature
	) external {
		_receiveWithAuthorization(from, to, value, validAfter, validBefore, nonce, signature);
	}

	function cancelAuthorization(address authorizer, bytes32 nonce, uint8 v, bytes32 r, bytes32 s) external {
		_cancelAuthorization(authorizer, nonce, abi.encodePacked(r, s, v));
	}

	function cancelAuthorization(address authorizer, bytes32 nonce, bytes memory signature) external {
		_cancelAuthorization(authorizer, nonce, signature);
	}

	function _transferWithAuthorization(
		address from,
		address to,
		uint256 value,
		uint256 validAfter,
		uint256 validBefore,
		bytes32 nonce,
		bytes memory signature
	) private {
		_requireValidAuthorization(from, nonce, validAfter, validBefore);
		bytes32 structHash = keccak256(
			abi.encode(TRANSFER_WITH_AUTHORIZATION_TYPEHASH, from, to, value, validAfter, validBefore, nonce)
		);
		require(_isValidSignature(from, _digest(structHash), signature), "FiatTokenV2: invalid signature");
		_markAuthorizationAsUsed(from, nonce);
		_transfer(from, to, value);
	}

	function _receiveWithAuthorization(
		address from,
		address to,
		uint256 value,
		uint256 validAfter,
		uint256 validBefore,
		bytes32 nonce,
		bytes memory signature
	) private {
		require(to == msg.sender, "FiatTokenV2: caller must be the payee");
		_requireValidAuthorization(from, nonce, validAfter, validBefore);
		bytes32 structHash = keccak256(
			abi.encode(RECEIVE_WITH_AUTHORIZATION_TYPEHASH, from, to, value, validAfter, validBefore, nonce)
		);
		require(_isValidSignature(from, _digest(structHash), signature), "FiatTokenV2: invalid signature");
		_markAuthorizationAsUsed(from, nonce);
		_transfer(from, to, value);
	}

	function _cancelAuthorization(address authorizer, bytes32 nonce, bytes memory signature) private {
		require(!_authorizationStates[authorizer][nonce], "FiatTokenV2: authorization is used or canceled");
		bytes32 structHash = keccak256(abi.encode(CANCEL_AUTHORIZATION_TYPEHASH, authorizer, nonce));
		require(_isValidSignature(authorizer, _digest(structHash), signature), "FiatTokenV2: invalid signature");
		_authorizationStates[authorizer][nonce] = true;
		emit AuthorizationCanceled(authorizer, nonce);
	}

	function _requireValidAuthorization(address authorizer, bytes32 nonce, uint256 validAfter, uint256 validBefore)
		private
		view
	{
		require(block.timestamp > validAfter, "FiatTokenV2: authorization is not yet valid");
		require(block.timestamp < validBefore, "FiatTokenV2: authorization is expired");
		require(!_authorizationStates[authorizer][nonce], "FiatTokenV2: authorization is used or canceled");
	}

	function _markAuthorizationAsUsed(address authorizer, bytes32 nonce) private {
		_authorizationStates[authorizer][nonce] = true;
		emit AuthorizationUsed(authorizer, nonce);
	}

	function _digest(bytes32 structHash) private view returns (bytes32) {
		return keccak256(abi.encodePacked("\x19\x01", DOMAIN_SEPARATOR(), structHash));
	}

	/// @dev EOA: 65-byte ECDSA signature (low s, v 27/28). Contract wallet: ERC-1271 isValidSignature.
	function _isValidSignature(address signer, bytes32 digest, bytes memory signature) private view returns (bool) {
		if (signer.code.length > 0) {
			(bool ok, bytes memory result) = signer.staticcall(
				abi.encodeWithSelector(ERC1271_MAGIC_VALUE, digest, signature)
			);
			return ok && result.length >= 32 && abi.decode(result, (bytes32)) == bytes32(ERC1271_MAGIC_VALUE);
		}
		if (signature.length != 65) return false;
		bytes32 r;
		bytes32 s;
		uint8 v;
		assembly {
			r := mload(add(signature, 0x20))
			s := mload(add(signature, 0x40))
			v := byte(0, mload(add(signature, 0x60)))
		}
		if (v < 27) v += 27;
		if (v != 27 && v != 28) return false;
		if (uint256(s) > HALF_CURVE_ORDER) return false;
		address recovered = ecrecover(digest, v, r, s);
		return recovered != address(0) && recovered == signer;
	}

	function _transfer(address from, address to, uint256 value) private {
		require(from != address(0), "ERC20: transfer from the zero address");
		require(to != address(0), "ERC20: transfer to the zero address");
		require(value <= balanceOf[from], "ERC20: transfer amount exceeds balance");
		balanceOf[from] -= value;
		balanceOf[to] += value;
		emit Transfer(from, to, value);
	}
}
